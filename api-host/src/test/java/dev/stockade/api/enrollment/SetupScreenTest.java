package dev.stockade.api.enrollment;

import static dev.stockade.api.enrollment.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.config.PlatformVersion;
import dev.stockade.api.support.Http;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The setup screen end to end: a browser (the JDK client, keeping cookies and following redirects) enters the code,
 * goes through the hub (the dev hub's wire format) and back; the installation exchanges the hub's code server-side.
 */
@MicronautTest(transactional = false)
class SetupScreenTest extends SetupThroughHubTest {
    SetupScreenTest() throws Exception {
    }

    @Override
    protected Map<String, String> hubTestProperties() {
        return Map.of("hub.heartbeat-interval", "300ms");
    }

    @Test
    void aWrongCodeIsDelayedAndRefusedAndTheRightCodeEnrollsThroughTheHub() throws Exception {
        HttpClient browser = Fixtures.browser();
        URI setup = URI.create(publicUrl + "/setup");
        HttpResponse<String> form = Fixtures.get(browser, setup);
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("default-src 'none'");

        long start = System.nanoTime();
        HttpResponse<String> wrong = Fixtures.postForm(browser, setup, "setupCode", "wrong-wrong-wrong-wrong");
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(1000);
        assertThat(wrong.statusCode()).isEqualTo(403);
        assertThat(wrong.body()).contains("not right");
        assertThat(wrong.uri().getPath()).isEqualTo("/setup");
        assertThat(problem(http.get("/v1/auth/me", ownerToken()), 503)).isEqualTo("fleet_enrollment_required");

        String code = Files.readString(dataDir.resolve("secrets/stockade-hub-setup/setupCode")).trim();
        HttpResponse<String> done = Fixtures.postForm(browser, setup, "setupCode", code);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        assertThat(done.uri().getPath()).isEqualTo("/setup/callback");
        assertThat(done.body()).contains("enrolled as fleet");
        // the browser went to the hub and back, and never saw the fleet access token
        HttpResponse<String> atHub = done.previousResponse().orElseThrow();
        assertThat(atHub.uri().toString()).startsWith(hub.url() + "/enroll?return=");
        for (HttpResponse<String> r = done; r != null; r = r.previousResponse().orElse(null)) {
            assertThat(r.body() + r.headers().map() + r.uri()).doesNotContain("hub_fat_");
        }

        Http.Response installation = http.get("/v1/installation", null);
        assertThat(installation.body().path("enrolled").asBoolean()).isTrue();
        assertThat(installation.text("connection")).isEqualTo("connected");
        String fleetId = installation.text("fleetId");
        assertThat(fleetId).startsWith("fleet-");
        await("the gate to open", () -> http.get("/v1/auth/me", ownerToken()).status() == 200);

        // the callback address works once
        HttpResponse<String> replay = Fixtures.get(browser, done.uri());
        assertThat(replay.statusCode()).isEqualTo(400);
        assertThat(replay.body()).contains("already used");
        // enrolled: the screen says so and a second submission is refused
        assertThat(Fixtures.get(browser, setup).body()).contains("is enrolled");
        assertThat(Fixtures.postForm(browser, setup, "setupCode", code).statusCode()).isEqualTo(409);

        await("a heartbeat with the platform version", () -> PlatformVersion.VALUE.equals(
                hub.lastHeartbeatVersion(fleetId)));
        assertHubSawOnlyEnrollmentFields();
    }

    @Test
    void aCallbackFromAnotherBrowserOrWithoutStateIsRefused() throws Exception {
        HttpClient other = Fixtures.browser();
        HttpResponse<String> forged = Fixtures.get(other, URI.create(publicUrl + "/setup/callback?code=x&state=y"));
        assertThat(forged.statusCode()).isEqualTo(400);
        assertThat(forged.body()).contains("start again");
        assertThat(Fixtures.get(other, URI.create(publicUrl + "/setup/callback?code=x")).statusCode()).isEqualTo(400);
    }

    /** What the installation sent the hub: exactly the fields of the wire format, nothing about agents or audit. */
    private void assertHubSawOnlyEnrollmentFields() {
        Map<String, Set<Set<String>>> byCall = hub.received().stream().collect(Collectors.groupingBy(
                r -> r.method() + " " + r.path().replaceAll("/fleets/[^/]+/", "/fleets/{id}/"),
                Collectors.mapping(DevHub.Received::keys, Collectors.toSet())));
        assertThat(byCall).containsOnlyKeys("GET /enroll", "POST /api/setup/exchange",
                "PUT /api/fleets/{id}/enrollment", "POST /api/fleets/{id}/heartbeat");
        assertThat(byCall.get("GET /enroll")).containsOnly(Set.of("return", "publicUrl", "state"));
        assertThat(byCall.get("POST /api/setup/exchange")).containsOnly(Set.of("code"));
        assertThat(byCall.get("PUT /api/fleets/{id}/enrollment")).containsOnly(Set.of("mode", "authMode"));
        assertThat(byCall.get("POST /api/fleets/{id}/heartbeat")).containsOnly(Set.of("version"));
        List<String> forbidden = List.of("agent", "sandbox", "polic", "credential", "audit");
        assertThat(hub.received().toString().toLowerCase()).doesNotContain(forbidden);
    }
}
