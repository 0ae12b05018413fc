package dev.stockade.api.enrollment;

import static dev.stockade.api.enrollment.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.TestDatabase;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Enrollment checks the hub's answer against the installation's own values: a different public URL, fleet ID or
 * sign-in mode refuses enrollment, says why in one log line and in {@code GET /v1/installation}, and keeps the gate
 * closed.
 */
class EnrollmentChecksTest {
    private static final String PUBLIC_URL = "https://stockade.example.test";

    @Test
    void aDifferentPublicUrlAtTheHubRefusesEnrollment() throws Exception {
        refused("public URL (hub has `https://elsewhere.example.test`", (hub, values) ->
                values.put("config.public-url", PUBLIC_URL), "https://elsewhere.example.test");
    }

    @Test
    void aDifferentFleetIdInTheAnswerRefusesEnrollment() throws Exception {
        refused("fleet ID (hub has `fleet-someone-else`", (hub, values) ->
                hub.answerEnrollmentWith("fleetId", "fleet-someone-else"), PUBLIC_URL);
    }

    @Test
    void aDifferentSignInModeRefusesEnrollment() throws Exception {
        refused("sign-in mode (hub has `customer-sso`, this installation `hosted-id`)", (hub, values) ->
                hub.answerEnrollmentWith("authMode", "customer-sso"), PUBLIC_URL);
    }

    private void refused(String why, BiConsumer<DevHub, Map<String, String>> arrange, String registeredUrl)
            throws Exception {
        Path dataDir = Fixtures.tempDir();
        ListAppender<ILoggingEvent> logs = Fixtures.captureLogs(Enrollment.class);
        try (DevHub hub = new DevHub(dataDir.resolve("hub.json"), 0)) {
            Map<String, String> values = new HashMap<>(Fixtures.hubValues(hub, dataDir, registeredUrl));
            values.put("hub.dev", "false");
            arrange.accept(hub, values);
            try (EmbeddedServer server = Fixtures.startPlatform(TestDatabase.newDatabase(), dataDir, values)) {
                Http http = new Http(server.getURI());
                await("the refusal's log line", () -> Fixtures.logged(logs, "enrollment refused: the hub's answer"
                        + " differs in " + why));
                Http.Response installation = http.get("/v1/installation", null);
                assertThat(installation.body().path("enrolled").asBoolean()).isFalse();
                assertThat(installation.body().path("warnings").toString()).contains("enrollment refused");
                String owner = Files.readString(dataDir.resolve("owner-token")).trim();
                assertThat(PlatformTest.problem(http.get("/v1/auth/me", owner), 503))
                        .isEqualTo("fleet_enrollment_required");
            }
        }
    }
}
