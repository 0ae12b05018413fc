package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.stockade.api.clusters.relay.ClusterRelay;
import dev.stockade.api.kernel.identity.ClusterTokens;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster reached only through its relay: the real relay client ({@link ClusterRelay}) polls the platform with
 * the tunnel token, verifies each request JWT against the project's published keys and carries it to a real HTTP
 * server standing for the cluster's API server, impersonating the sandbox with its own service-account token.
 */
@MicronautTest(transactional = false)
class ClusterRelayTest extends PlatformTest {
    @Inject
    ClusterTokens keys;

    ApiServerStandIn apiServer;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("clusters.relay-poll-wait", "1s");
    }

    @BeforeAll
    void startApiServer() throws IOException {
        apiServer = new ApiServerStandIn();
    }

    @AfterAll
    void stopApiServer() {
        apiServer.close();
    }

    record Setup(String org, String project, String cluster, String tunnelToken, String clusterToken, Path saToken) {
    }

    private Setup setup() throws IOException {
        String owner = ownerToken();
        String org = createOrg(owner, "relay-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        Http.Response c = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", "behind-nat"));
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s")).text("token");
        String clusterToken = http.post("/v1/auth/cluster-token", sandbox, null).text("token");
        Path sa = dev.stockade.api.support.Scratch.directory("sa-token").resolve("token");
        Files.writeString(sa, "relay-service-account-token\n");
        apiServer.seen.clear();
        return new Setup(org, project, c.text("id"), c.text("tunnelToken"), clusterToken, sa);
    }

    private ClusterRelay relay(Setup s, String tunnelToken) {
        return new ClusterRelay(new ClusterRelay.Settings(http.base(), UUID.fromString(s.cluster()),
                UUID.fromString(s.project()), tunnelToken, URI.create(apiServer.url()), HttpClient.newHttpClient(),
                s.saToken()));
    }

    private void awaitConnected(Setup s, boolean connected) throws InterruptedException {
        // the relay's first poll is on its way
        Await.until("relayConnected to become " + connected, () -> http.get("/v1/clusters/" + s.cluster(),
                ownerToken()).body().path("relayConnected").asBoolean() == connected);
    }

    @Test
    void requestsCrossTheRelayAsTheSandboxAndARotationCutsTheRelayOff() throws Exception {
        Setup s = setup();
        String proxy = "/v1/clusters/" + s.cluster() + "/proxy";
        assertThat(problem(http.get(proxy + "/api/v1/pods", s.clusterToken()), 502)).isEqualTo("cluster_unreachable");

        ClusterRelay relay = relay(s, s.tunnelToken());
        CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() -> {
            try {
                relay.run();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        try {
            awaitConnected(s, true);
            Http.Response pods = http.get(proxy + "/api/v1/namespaces/default/pods?limit=1", s.clusterToken());
            assertThat(pods.status()).as(pods.raw()).isEqualTo(200);
            assertThat(pods.body().path("kind").asText()).isEqualTo("PodList");
            assertThat(pods.contentType()).startsWith("application/json");
            ApiServerStandIn.Seen seen = apiServer.seen.poll(10, TimeUnit.SECONDS);
            assertThat(seen.rawPath()).isEqualTo("/api/v1/namespaces/default/pods");
            assertThat(seen.rawQuery()).isEqualTo("limit=1");
            assertThat(seen.header("Authorization")).isEqualTo("Bearer relay-service-account-token");
            assertThat(seen.header("Impersonate-User")).startsWith("sandbox-token:");
            assertThat(seen.header("Impersonate-Group")).isEqualTo(s.org() + "/" + s.project() + ":member");

            Http.Response created = http.send("POST", proxy + "/api/v1/namespaces/default/configmaps",
                    s.clusterToken(), "application/json", "{\"kind\":\"ConfigMap\"}");
            assertThat(created.status()).isEqualTo(201);
            assertThat(created.raw()).isEqualTo("{\"kind\":\"ConfigMap\"}");
            assertThat(apiServer.seen.poll(10, TimeUnit.SECONDS).body()).isEqualTo("{\"kind\":\"ConfigMap\"}");
            assertThat(problem(http.get(proxy + "/api/v1/pods?watch=true", s.clusterToken()), 400))
                    .isEqualTo("invalid_parameter");

            Http.Response rotated = http.post("/v1/clusters/" + s.cluster() + "/rotate-tunnel-token", ownerToken(), null);
            assertThat(rotated.status()).isEqualTo(200);
            assertThat(ended.get(30, TimeUnit.SECONDS)).as("the relay stops: its token was refused")
                    .isInstanceOf(ClusterRelay.TunnelRefused.class);
            assertThat(problem(http.get(proxy + "/api/v1/pods", s.clusterToken()), 502))
                    .isEqualTo("cluster_unreachable");
        } finally {
            relay.stop();
        }
    }

    @Test
    void theRelayRefusesRequestsItsProjectDidNotSignForThisRequest() throws Exception {
        Setup s = setup();
        ClusterRelay relay = relay(s, s.tunnelToken());
        String body = Base64.getEncoder().encodeToString("{}".getBytes());
        String good = token(s, s.project(), "stockade-cluster:" + s.cluster(), "POST", "/api/v1/pods", "{}");
        RelayHub.Envelope ok = new RelayHub.Envelope(UUID.randomUUID().toString(), "POST", "/api/v1/pods",
                Map.of("Content-Type", List.of("application/json")), body, good);
        assertThat(relay.serve(ok).status()).isEqualTo(201);
        assertThat(relay.serve(ok).status()).as("a replayed token").isEqualTo(403);

        Map<String, RelayHub.Envelope> bad = Map.of(
                "another path", new RelayHub.Envelope("1", "POST", "/api/v1/secrets", Map.of(), body,
                        token(s, s.project(), "stockade-cluster:" + s.cluster(), "POST", "/api/v1/pods", "{}")),
                "another method", new RelayHub.Envelope("2", "DELETE", "/api/v1/pods", Map.of(), body,
                        token(s, s.project(), "stockade-cluster:" + s.cluster(), "POST", "/api/v1/pods", "{}")),
                "another body", new RelayHub.Envelope("3", "POST", "/api/v1/pods", Map.of(),
                        Base64.getEncoder().encodeToString("{\"x\":1}".getBytes()),
                        token(s, s.project(), "stockade-cluster:" + s.cluster(), "POST", "/api/v1/pods", "{}")),
                "another cluster", new RelayHub.Envelope("4", "POST", "/api/v1/pods", Map.of(), body,
                        token(s, s.project(), "stockade-cluster:" + UUID.randomUUID(), "POST", "/api/v1/pods", "{}")),
                "the sandbox's own cluster JWT", new RelayHub.Envelope("5", "POST", "/api/v1/pods", Map.of(), body,
                        s.clusterToken()),
                "not a JWT", new RelayHub.Envelope("6", "POST", "/api/v1/pods", Map.of(), body, "nope"));
        apiServer.seen.clear();
        for (Map.Entry<String, RelayHub.Envelope> c : bad.entrySet()) {
            RelayHub.Answer answer = relay.serve(c.getValue());
            assertThat(answer.status()).as(c.getKey()).isEqualTo(403);
            assertThat(new String(Base64.getDecoder().decode(answer.body()))).contains("\"kind\":\"Status\"");
        }
        assertThat(apiServer.seen).as("nothing refused reached the API server").isEmpty();
    }

    @Test
    void theTunnelNeedsTheCurrentTunnelTokenAndAWellFormedAnswer() throws Exception {
        Setup s = setup();
        String base = "/v1/clusters/" + s.cluster() + "/relay";
        assertThat(problem(http.post(base + "/next", null, null), 401)).isEqualTo("unauthenticated");
        assertThat(problem(http.post(base + "/next", ownerToken(), null), 401)).isEqualTo("unauthenticated");
        assertThat(problem(http.post(base + "/next", s.clusterToken(), null), 401)).isEqualTo("unauthenticated");
        assertThat(problem(http.post("/v1/clusters/" + UUID.randomUUID() + "/relay/next", s.tunnelToken(), null), 401))
                .as("another cluster's id").isEqualTo("unauthenticated");
        assertThat(http.post(base + "/next", s.tunnelToken(), null).status()).as("nothing waiting").isEqualTo(204);
        String answers = base + "/answers/" + UUID.randomUUID();
        assertThat(problem(http.send("POST", answers, s.tunnelToken(), "application/json", "{\"status\":"), 400))
                .isEqualTo("validation_failed");
        assertThat(problem(http.post(answers, s.tunnelToken(), Map.of("status", 200, "extra", 1)), 400))
                .isEqualTo("validation_failed");
        assertThat(problem(http.post(answers, s.tunnelToken(), Map.of("status", 999, "headers", Map.of(),
                "body", "")), 400)).isEqualTo("validation_failed");
        assertThat(problem(http.post(answers, s.tunnelToken(), Map.of("status", 200, "headers", Map.of(),
                "body", "")), 404)).as("nothing waits for it").isEqualTo("not_found");
    }

    /** A request JWT as the platform signs it, with the project's real key. */
    private String token(Setup s, String project, String audience, String method, String path, String body)
            throws Exception {
        String sha = Base64.getUrlEncoder().withoutPadding().encodeToString(
                java.security.MessageDigest.getInstance("SHA-256").digest(body.getBytes()));
        return keys.sign(UUID.fromString(project), new JWTClaimsSet.Builder().audience(audience)
                .subject("sandbox-token:" + UUID.randomUUID()).jwtID(UUID.randomUUID().toString())
                .issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(60)))
                .claim("groups", List.of(s.org() + "/" + project + ":member"))
                .claim("request", Map.of("method", method, "path", path, "bodySha256", sha)));
    }
}
