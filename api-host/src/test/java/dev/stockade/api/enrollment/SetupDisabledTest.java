package dev.stockade.api.enrollment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code hub.setup.enabled=false} and no hub values: only the values route enrolls; the setup routes answer 404. */
@MicronautTest(transactional = false)
class SetupDisabledTest extends PlatformTest {

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("hub.dev", "false", "hub.setup.enabled", "false", "hub.url", "http://127.0.0.1:9");
    }

    @Override
    protected boolean enrolledAtStart() {
        return false;
    }

    @Test
    void theSetupRoutesAreNotFoundAndTheGateStaysClosed() {
        assertThat(problem(http.get("/setup", null), 404)).isEqualTo("not_found");
        assertThat(problem(http.send("POST", "/setup", null, "application/x-www-form-urlencoded",
                "setupCode=0123456789abcdefgh"), 404)).isEqualTo("not_found");
        assertThat(problem(http.post("/v1/installation/activation", null, Map.of("setupCode", "0123456789abcdefgh")),
                404)).isEqualTo("not_found");
        assertThat(Files.exists(dataDir.resolve("secrets/stockade-hub-setup"))).isFalse();
        assertThat(http.get("/v1/installation", null).body().path("enrolled").asBoolean()).isFalse();
        assertThat(http.get("/health", null).status()).isEqualTo(200);
        assertThat(problem(http.get("/v1/auth/me", ownerToken()), 503)).isEqualTo("fleet_enrollment_required");
    }
}
