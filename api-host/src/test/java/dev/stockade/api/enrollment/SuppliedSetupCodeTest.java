package dev.stockade.api.enrollment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.TestDatabase;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A setup code supplied through {@code hub.setup.existingSecret}: at least 16 characters, else the start refuses. */
class SuppliedSetupCodeTest {
    private static final Map<String, String> SUPPLIED = Map.of("hub.dev", "false", "hub.url", "http://127.0.0.1:9",
            "hub.setup.existing-secret", "my-setup", "hub.setup.key", "code");

    @Test
    void aSuppliedCodeOpensTheDeviceFlowAndNoCodeIsGenerated() throws Exception {
        Path dataDir = Fixtures.tempDir();
        Fixtures.writeSecret(dataDir, "my-setup", "code", "supplied-code-0123456789");
        try (EmbeddedServer server = Fixtures.startPlatform(TestDatabase.newDatabase(), dataDir, SUPPLIED)) {
            Http http = new Http(server.getURI());
            Http.Response r = http.post("/v1/installation/activation", null,
                    Map.of("setupCode", "supplied-code-0123456789"));
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.text("verificationUri")).startsWith("http://127.0.0.1:9/enroll?");
            assertThat(Files.exists(dataDir.resolve("secrets/stockade-hub-setup"))).isFalse();
        }
    }

    @Test
    void aSuppliedCodeShorterThan16CharactersRefusesTheStart() throws Exception {
        Path dataDir = Fixtures.tempDir();
        Fixtures.writeSecret(dataDir, "my-setup", "code", "fifteen-chars-x");
        assertThatThrownBy(() -> Fixtures.startPlatform(TestDatabase.newDatabase(), dataDir, SUPPLIED).close())
                .satisfies(e -> assertThat(messages(e)).contains("has 15 characters; at least 16 are required"));
    }

    @Test
    void aMissingSuppliedSecretRefusesTheStart() {
        Path dataDir = Fixtures.tempDir();
        assertThatThrownBy(() -> Fixtures.startPlatform(TestDatabase.newDatabase(), dataDir, SUPPLIED).close())
                .satisfies(e -> assertThat(messages(e)).contains("the secret `my-setup` has no key `code`"));
    }

    private static String messages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            out.append(t.getMessage()).append('\n');
        }
        return out.toString();
    }
}
