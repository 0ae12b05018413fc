package dev.stockade.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.testing.Await;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of tests that run the real platform: a Micronaut context with its HTTP server on a random port, a fresh
 * database on the real PostgreSQL, a temporary data directory and the dev hub (so the installation enrolls through
 * the real wire format). Subclasses add {@code @MicronautTest(transactional = false)} and may override
 * {@link #extraProperties()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PlatformTest implements TestPropertyProvider {
    protected final Path dataDir = temp();

    @Inject
    protected EmbeddedServer server;

    protected Http http;

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new HashMap<>();
        p.put("datasources.default.url", TestDatabase.newDatabase());
        p.put("datasources.default.username", TestDatabase.user());
        p.put("datasources.default.password", TestDatabase.password());
        p.put("micronaut.server.port", "-1");
        p.put("config.data-dir", dataDir.toString());
        p.put("hub.dev", "true");
        p.put("sandbox.egress.port", "0");
        p.putAll(extraProperties());
        return p;
    }

    protected Map<String, String> extraProperties() {
        return Map.of();
    }

    /** Whether the installation enrolls at start (the default, with the dev hub); not-enrolled tests say false. */
    protected boolean enrolledAtStart() {
        return true;
    }

    @BeforeEach
    void connect() throws InterruptedException {
        http = new Http(server.getURI());
        if (!enrolledAtStart()) {
            return;
        }
        // enrollment with the dev hub runs in the background at start
        Await.until("the installation to enroll with the dev hub", Await.LONG,
                () -> http.get("/v1/installation", null).body().path("enrolled").asBoolean());
    }

    /** The installation owner's API token, as written to the data directory on first start. */
    protected String ownerToken() {
        try {
            return Files.readString(dataDir.resolve("owner-token")).trim();
        } catch (IOException e) {
            throw new IllegalStateException("no owner token in " + dataDir, e);
        }
    }

    protected String createOrg(String token, String name) {
        Http.Response r = http.post("/v1/orgs", token, Map.of("name", name));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.text("id");
    }

    protected String createProject(String token, String orgId, String name) {
        Http.Response r = http.post("/v1/orgs/" + orgId + "/projects", token, Map.of("name", name));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.text("id");
    }

    protected String createApiToken(String token, String orgId, String name) {
        Http.Response r = http.post("/v1/orgs/" + orgId + "/api-tokens", token, Map.of("name", name));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.text("token");
    }

    /** Asserts the RFC 9457 shape and returns the body's {@code code}. */
    public static String problem(Http.Response r, int status) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().path("type").asText()).contains("/problems/");
        assertThat(r.body().path("title").asText()).isNotBlank();
        assertThat(r.body().path("status").isInt()).isTrue();
        assertThat(r.body().path("status").asInt()).isEqualTo(status);
        assertThat(r.body().path("detail").asText()).isNotBlank();
        return r.body().path("code").asText();
    }

    private static Path temp() {
        return Scratch.directory("stockade-platform-test-" + UUID.randomUUID());
    }
}
