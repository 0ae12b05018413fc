package dev.stockade.api.enrollment;

import static dev.stockade.api.enrollment.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.TestDatabase;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A hub outage never stops work, also across a restart of the platform, and shows as {@code connection: unavailable}
 * with a warning; a revocation at the hub stops agent work (503 {@code fleet_enrollment_revoked}).
 */
class HubOutageTest {

    @Test
    void anOutageKeepsWorkGoingAcrossARestartAndARevocationStopsIt() throws Exception {
        Path dataDir = Fixtures.tempDir();
        Path hubState = dataDir.resolve("hub.json");
        String database = TestDatabase.newDatabase();
        DevHub hub = new DevHub(hubState, 0);
        int hubPort = hub.url().getPort();
        Map<String, String> values = new HashMap<>(Fixtures.hubValues(hub, dataDir, "https://stockade.example.test"));
        values.put("hub.dev", "false");
        String fleetId = values.get("hub.fleet-id");

        try (EmbeddedServer first = Fixtures.startPlatform(database, dataDir, values)) {
            Http http = new Http(first.getURI());
            await("enrolled and connected", () -> "connected".equals(http.get("/v1/installation", null)
                    .text("connection")));
            String owner = Files.readString(dataDir.resolve("owner-token")).trim();
            assertThat(http.get("/v1/auth/me", owner).status()).isEqualTo(200);

            hub.close(); // the hub goes away
            await("the outage to show", () -> "unavailable".equals(http.get("/v1/installation", null)
                    .text("connection")));
            assertOutageShownAndWorkGoesOn(http, owner);
        }

        try (EmbeddedServer second = Fixtures.startPlatform(database, dataDir, values)) {
            Http http = new Http(second.getURI());
            String owner = Files.readString(dataDir.resolve("owner-token")).trim();
            assertThat(http.get("/v1/installation", null).body().path("enrolled").asBoolean()).isTrue();
            await("the outage to show after the restart", () -> "unavailable".equals(
                    http.get("/v1/installation", null).text("connection")));
            assertOutageShownAndWorkGoesOn(http, owner);

            try (DevHub back = new DevHub(hubState, hubPort)) { // the hub is back, and revokes the fleet
                await("connected again", () -> "connected".equals(http.get("/v1/installation", null)
                        .text("connection")));
                back.revoke(fleetId);
                await("agent work to stop", () -> http.get("/v1/auth/me", owner).status() == 503);
                assertThat(PlatformTest.problem(http.get("/v1/auth/me", owner), 503))
                        .isEqualTo("fleet_enrollment_revoked");
                Http.Response installation = http.get("/v1/installation", null);
                assertThat(installation.body().path("enrolled").asBoolean()).isFalse();
                assertThat(installation.body().path("revoked").asBoolean()).isTrue();
                assertThat(http.get("/health", null).status()).isEqualTo(200);

                // values naming another fleet enroll again; a second replica starting with them lifts the stop
                Map<String, String> next = new HashMap<>(Fixtures.hubValues(back, dataDir, values.get("config.public-url")));
                next.put("hub.dev", "false");
                try (EmbeddedServer third = Fixtures.startPlatform(database, dataDir, next)) {
                    Http replica = new Http(third.getURI());
                    await("enrolled with the new fleet", () -> next.get("hub.fleet-id").equals(
                            replica.get("/v1/installation", null).text("fleetId")));
                    await("the first replica to follow", () -> http.get("/v1/auth/me", owner).status() == 200);
                    assertThat(replica.get("/v1/auth/me", owner).status()).isEqualTo(200);
                }
            }
        }
    }

    private static void assertOutageShownAndWorkGoesOn(Http http, String owner) {
        Http.Response installation = http.get("/v1/installation", null);
        assertThat(installation.body().path("enrolled").asBoolean()).isTrue();
        assertThat(installation.body().path("warnings").toString()).contains("heartbeat unreachable");
        assertThat(http.get("/v1/auth/me", owner).status()).isEqualTo(200);
        assertThat(http.post("/v1/orgs", owner, Map.of("name", "org-" + System.nanoTime())).status()).isEqualTo(201);
    }
}
