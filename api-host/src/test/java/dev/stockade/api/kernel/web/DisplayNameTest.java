package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Display names hold no character a name may not contain (issue 25, item 3): the C1 controls that {@code \p{Cntrl}}
 * missed (NEL, U+009B), the line separators and the bidirectional formatting characters are refused on every route
 * that takes a name, create and rename alike, and nothing is stored.
 */
@MicronautTest(transactional = false)
class DisplayNameTest extends PlatformTest {
    /** Every C1 control, both ends of the C0 range, DEL, the separators and a sample of bidi controls. */
    private static final String[] FORBIDDEN = forbidden();

    private static String[] forbidden() {
        String[] extra = {"\u0000", "\t", "\u001f", "\u007f", "\u2028", "\u2029", "\u202e", "\u2066", "\u200f",
            "\u061c"};
        String[] all = new String[32 + extra.length];
        for (int c = 0x80; c <= 0x9f; c++) {
            all[c - 0x80] = String.valueOf((char) c);
        }
        System.arraycopy(extra, 0, all, 32, extra.length);
        return all;
    }

    private void refusedEverywhere(String method, String path, String token, String field) {
        for (String c : FORBIDDEN) {
            String name = "a" + c + "b";
            Http.Response r = http.send(method, path, token, "application/json", Map.of(field, name));
            assertThat(problem(r, 400)).as("U+%04X on %s %s", (int) c.charAt(0), method, path)
                    .isEqualTo("validation_failed");
            assertThat(r.body().path("errors").path(0).path("pointer").asText()).isEqualTo("/" + field);
            assertThat(r.raw()).doesNotContain(name);
        }
    }

    @Test
    void controlSeparatorAndBidiCharactersAreRefusedInEveryDisplayName() {
        String owner = ownerToken();
        int orgs = http.get("/v1/orgs", owner).body().path("items").size();
        refusedEverywhere("POST", "/v1/orgs", owner, "name");
        assertThat(http.get("/v1/orgs", owner).body().path("items").size()).isEqualTo(orgs);

        String org = createOrg(owner, "names");
        refusedEverywhere("PATCH", "/v1/orgs/" + org, owner, "name");
        refusedEverywhere("POST", "/v1/orgs/" + org + "/projects", owner, "name");
        String project = createProject(owner, org, "p");
        refusedEverywhere("PATCH", "/v1/projects/" + project, owner, "name");
        refusedEverywhere("POST", "/v1/orgs/" + org + "/api-tokens", owner, "name");
        refusedEverywhere("POST", "/v1/projects/" + project + "/clusters", owner, "name");
        assertThat(http.get("/v1/orgs/" + org, owner).text("name")).isEqualTo("names");
        assertThat(http.get("/v1/projects/" + project, owner).text("name")).isEqualTo("p");
    }

    @Test
    void namesInOtherScriptsAndWithEmojiAreKept() {
        String owner = ownerToken();
        for (String name : new String[] {"Ünïcødé", "名前", "עברית", "emoji \uD83D\uDE00", "x".repeat(100)}) {
            Http.Response r = http.post("/v1/orgs", owner, Map.of("name", name));
            assertThat(r.status()).as(name + " " + r.raw()).isEqualTo(201);
            assertThat(http.get("/v1/orgs/" + r.text("id"), owner).text("name")).isEqualTo(name);
        }
        assertThat(problem(http.post("/v1/orgs", owner, Map.of("name", "x".repeat(101))), 400))
                .isEqualTo("validation_failed");
    }
}
