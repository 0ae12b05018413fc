package dev.stockade.api.enrollment;

import static dev.stockade.api.enrollment.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.config.PlatformVersion;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Hub values (hub.url, hub.fleetId, the token's secret) take precedence over the setup screen: the installation
 * enrolls from them at start, the setup routes answer 404 and no setup code is generated.
 */
@MicronautTest(transactional = false)
class HubValuesTest extends PlatformTest {
    private static final String PUBLIC_URL = "https://stockade.example.test";
    private final DevHub hub = new DevHub(Fixtures.tempDir().resolve("hub.json"), 0);
    private final Map<String, String> values = Fixtures.hubValues(hub, dataDir, PUBLIC_URL);

    HubValuesTest() throws Exception {
    }

    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(values);
        p.put("hub.dev", "false");
        p.put("hub.heartbeat-interval", "300ms");
        return p;
    }

    @AfterAll
    void stopHub() {
        hub.close();
    }

    @Test
    void theValuesEnrollAndTheSetupScreenIsNotOffered() {
        Http.Response installation = http.get("/v1/installation", null);
        assertThat(installation.text("fleetId")).isEqualTo(values.get("hub.fleet-id"));
        assertThat(installation.text("hubUrl")).isEqualTo(hub.url().toString());
        assertThat(installation.body().path("devHub").asBoolean()).isFalse();
        assertThat(http.get("/v1/auth/me", ownerToken()).status()).isEqualTo(200);

        assertThat(problem(http.get("/setup", null), 404)).isEqualTo("not_found");
        assertThat(problem(http.send("POST", "/setup", null, "application/x-www-form-urlencoded", "setupCode=x"), 404))
                .isEqualTo("not_found");
        assertThat(problem(http.get("/setup/callback?code=a&state=b", null), 404)).isEqualTo("not_found");
        assertThat(problem(http.post("/v1/installation/activation", null, Map.of("setupCode", "0123456789abcdefgh")),
                404)).isEqualTo("not_found");
        assertThat(Files.exists(dataDir.resolve("secrets/stockade-hub-setup"))).isFalse();
    }

    @Test
    void theHeartbeatCarriesTheVersionAndTheHubReceivesOnlyTheWireFormatsFields() throws Exception {
        String fleetId = values.get("hub.fleet-id");
        await("a heartbeat with the platform version", () -> PlatformVersion.VALUE.equals(
                hub.lastHeartbeatVersion(fleetId)));
        assertThat(http.get("/v1/installation", null).text("connection")).isEqualTo("connected");
        for (DevHub.Received r : hub.received()) {
            Set<String> expected = switch (r.method() + " " + r.path()) {
                case "POST /api/fleets" -> Set.of("namespace", "name", "kind", "publicUrl"); // the operator's call
                default -> r.path().endsWith("/enrollment") ? Set.of("mode", "authMode")
                        : r.path().endsWith("/heartbeat") ? Set.of("version") : Set.of("unexpected call " + r);
            };
            assertThat(r.keys()).as(r.toString()).isEqualTo(expected);
        }
        assertThat(hub.received()).extracting(DevHub.Received::path)
                .contains("/api/fleets/" + fleetId + "/enrollment", "/api/fleets/" + fleetId + "/heartbeat");
        assertThat(hub.received().toString().toLowerCase()).doesNotContain(
                List.of("agent", "sandbox", "polic", "credential", "audit"));
    }
}
