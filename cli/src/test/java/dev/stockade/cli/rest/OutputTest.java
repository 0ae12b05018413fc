package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rendering for people: control characters never reach the terminal; tables line up; times parse. */
class OutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void controlCharactersAndBidiOverridesAreEscaped() {
        assertThat(Text.safe("plain name")).isEqualTo("plain name");
        assertThat(Text.safe("a\u001b[31mred\nline\ttab\u0007")).isEqualTo("a\\u001b[31mred\\nline\\ttab\\u0007");
        assertThat(Text.safe("x\u202eevil\u0085")).isEqualTo("x\\u202eevil\\u0085");
        assertThat(Text.safe("ünïcödé ✓")).isEqualTo("ünïcödé ✓");
    }

    @Test
    void aProblemFromTheServerCannotDriveTheTerminal() throws Exception {
        JsonNode problem = JSON.readTree("{\"type\":\"x/not-found\",\"title\":\"Not found\",\"status\":404,"
                + "\"detail\":\"gone\\u001b]0;owned\\u0007\",\"code\":\"not_found\","
                + "\"errors\":[{\"pointer\":\"/a\\nb\",\"code\":\"bad\",\"detail\":\"no\\r\"}]}");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        new Output(new PrintWriter(out), new PrintWriter(err), Output.Format.table).problem(new Refused(404, problem));
        assertThat(err.toString()).isEqualTo("error: gone\\u001b]0;owned\\u0007 (not_found, HTTP 404)\n"
                + "  /a\\nb: no\\r\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void tablesLineUpAndMissingValuesShowAsDash() throws Exception {
        JsonNode page = JSON.readTree("{\"items\":[{\"id\":\"1\",\"name\":\"alpha\"},{\"id\":\"22\",\"name\":null}]}");
        StringWriter out = new StringWriter();
        new Output(new PrintWriter(out), new PrintWriter(new StringWriter()), Output.Format.table)
                .list(page, List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name")));
        assertThat(out.toString()).isEqualTo("ID  NAME\n1   alpha\n22  -\n");
    }

    @Test
    void timesOnTheCommandLine() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        assertThat(Times.parse("--expires", "30d", true, now)).isEqualTo("2026-12-23T12:00:00Z");
        assertThat(Times.parse("--since", "2h", false, now)).isEqualTo("2026-11-23T10:00:00Z");
        assertThat(Times.parse("--since", "2026-11-01", false, now)).isEqualTo("2026-11-01T00:00:00Z");
        assertThat(Times.parse("--since", "2026-11-01T08:30:00Z", false, now)).isEqualTo("2026-11-01T08:30:00Z");
        // a clock finer than the platform stores: relative times go out in whole microseconds, which it accepts
        Instant fine = Instant.parse("2026-11-23T12:00:00.123456789Z");
        assertThat(Times.parse("--since", "2h", false, fine)).isEqualTo("2026-11-23T10:00:00.123456Z");
    }

    @Test
    void urlsAndPathSegments() {
        assertThat(ApiClient.parseUrl("http://127.0.0.1:8080/").toString()).isEqualTo("http://127.0.0.1:8080");
        assertThat(ApiClient.seg("../x y/?")).isEqualTo("%2E%2E%2Fx%20y%2F%3F");
    }
}
