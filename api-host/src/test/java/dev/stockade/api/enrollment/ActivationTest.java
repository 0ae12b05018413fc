package dev.stockade.api.enrollment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.Http;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The activation device flow end to end: a CLI proves the code, a person opens the URL, the CLI's poll sees the end. */
@MicronautTest(transactional = false)
class ActivationTest extends SetupThroughHubTest {
    ActivationTest() throws Exception {
    }

    @Test
    void sessionsExpireFailOrEnrollAndThePollSaysWhich() throws Exception {
        String code = Files.readString(dataDir.resolve("secrets/stockade-hub-setup/setupCode")).trim();
        Http.Response expiring = start(code);
        Http.Response failing = start(code);
        Http.Response enrolling = start(code);
        assertThat(enrolling.body().path("expiresIn").asLong()).isEqualTo(600);
        assertThat(enrolling.body().path("interval").asInt()).isPositive();
        assertThat(enrolling.text("verificationUri")).startsWith(hub.url() + "/enroll?return="
                + URLEncoder.encode(publicUrl + "/setup/callback", StandardCharsets.UTF_8));
        assertThat(poll(enrolling).text("status")).isEqualTo("pending");

        server.getApplicationContext().getBean(Sql.class).prepare("UPDATE enrollment_session SET expires_at = now()"
                + " - interval '1 second' WHERE id = ?", ps -> {
                    ps.setString(1, expiring.text("sessionId"));
                    return ps.executeUpdate();
                });
        assertThat(poll(expiring).text("status")).isEqualTo("expired");
        HttpResponse<String> late = Fixtures.get(Fixtures.browser(), callback("whatever", state(expiring)));
        assertThat(late.statusCode()).isEqualTo(400);

        // the hub does not know this code: the exchange fails, and the poller learns why (never a token)
        HttpResponse<String> refused = Fixtures.get(Fixtures.browser(), callback("not-a-hub-code", state(failing)));
        assertThat(refused.statusCode()).isEqualTo(502);
        Http.Response failed = poll(failing);
        assertThat(failed.text("status")).isEqualTo("failed");
        assertThat(failed.text("error")).contains("/api/setup/exchange answered 400");

        // a person opens the URL in any browser (no cookie: the CLI proved the code) and the CLI sees enrolled
        HttpResponse<String> page = Fixtures.get(Fixtures.browser(), URI.create(enrolling.text("verificationUri")));
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body()).contains("return to your terminal").doesNotContain("hub_fat_");
        assertThat(poll(enrolling).text("status")).isEqualTo("enrolled");
        assertThat(http.get("/v1/installation", null).body().path("enrolled").asBoolean()).isTrue();

        assertThat(problem(http.post("/v1/installation/activation", null, Map.of("setupCode", code)), 409))
                .isEqualTo("conflict");
        assertThat(poll(failing).text("status")).isEqualTo("failed");
    }

    private Http.Response start(String code) {
        Http.Response r = http.post("/v1/installation/activation", null, Map.of("setupCode", code));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(r.text("sessionId")).matches("[A-Za-z0-9_-]{40,}");
        return r;
    }

    private Http.Response poll(Http.Response started) {
        Http.Response r = http.get("/v1/installation/activation/" + started.text("sessionId"), null);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r;
    }

    private static String state(Http.Response started) {
        String uri = started.text("verificationUri");
        return URLDecoder.decode(uri.substring(uri.indexOf("&state=") + 7), StandardCharsets.UTF_8);
    }

    private URI callback(String hubCode, String state) {
        return URI.create(publicUrl + "/setup/callback?code=" + hubCode + "&state="
                + URLEncoder.encode(state, StandardCharsets.UTF_8));
    }
}
