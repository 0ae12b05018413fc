package dev.stockade.api.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.CredentialStore;
import dev.stockade.proxy.ProxyConfig;
import dev.stockade.proxy.ProxyServer;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.proxy.feed.ControlPlaneSource;
import dev.stockade.proxy.feed.FeedApplier;
import dev.stockade.proxy.feed.PlatformAuditSink;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A separate proxy replica fed by the platform: proxy-host's server and {@link ControlPlaneSource} (what
 * {@code stockade-proxy --platform} runs) follow the real platform's feed with a proxy token, and a real sandbox's curl
 * goes through the replica with its sandbox token. The replica enforces the sandbox's set, follows a policy update and
 * a halt without a restart, and keeps its last good set when the platform cuts it off (a revoked token).
 */
@MicronautTest(transactional = false)
class ProxyReplicaEndToEndTest extends PlatformTest {
    @Inject
    LocalProvisioner provisioner;
    @Inject
    PlatformEgress egress;

    private HttpServer origin;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<AuditEvent> audit = new CopyOnWriteArrayList<>();

    @BeforeAll
    void origin() throws Exception {
        Requires.bubblewrap();
        origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.createContext("/", ex -> {
            byte[] body = ("origin saw " + ex.getRequestHeaders().getFirst("Host")).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.start();
    }

    @AfterAll
    void stopOrigin() {
        if (origin != null) {
            origin.stop(0);
        }
    }

    @Test
    void aReplicaFollowsTheFeedAndKeepsItsLastGoodSetWhenCutOff() throws Exception {
        int port = origin.getAddress().getPort();
        String owner = ownerToken();
        String org = createOrg(owner, "replica");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies", owner, "application/yaml",
                "name: one\nnetworkDefaultVerdict: deny\nallowedDomains:\n  - pattern: allowed.test\n    verdict: allow\n");
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response created = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner, "application/yaml",
                "name: worker\ncpu: 500m\nmemory: 256Mi\npolicies: [" + policy.text("id") + "]\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        awaitRunning("/v1/projects/" + project + "/sandboxes/" + id, owner);

        // only the installation owner mints proxy tokens; only a proxy token reads the feed, and nothing else
        assertThat(problem(http.post("/v1/proxy-tokens", createApiToken(owner, org, "ops"), Map.of("name", "edge")),
                403)).isEqualTo("forbidden");
        Http.Response minted = http.post("/v1/proxy-tokens", owner, Map.of("name", "edge-1"));
        assertThat(minted.status()).as(minted.raw()).isEqualTo(201);
        String proxyToken = minted.text("token");
        assertThat(proxyToken).startsWith("stk_pxy_");
        assertThat(problem(http.get("/v1/egress/feed", owner), 403)).isEqualTo("forbidden");
        assertThat(problem(http.get("/v1/orgs", proxyToken), 403)).isEqualTo("forbidden");
        assertThat(problem(http.get("/v1/egress/feed?after=x", proxyToken), 400)).isEqualTo("validation_failed");
        assertThat(http.get("/v1/proxy-tokens", owner).body().path("items").toString()).contains("edge-1")
                .doesNotContain(proxyToken);

        try (Replica replica = new Replica(proxyToken)) {
            assertThat(replica.feed.awaitSynced(Duration.ofSeconds(30))).isTrue();
            assertThat(curl(id, replica.port(), "http://allowed.test:" + port + "/")).endsWith("[200]");
            assertThat(curl(id, replica.port(), "http://other.test:" + port + "/")).endsWith("[403]");
            assertThat(audit).anySatisfy(e -> assertThat(e.toString()).contains(id));
            // the replica ships its decisions into the platform's trail, attributed to the sandbox
            // the replica posts its audit lines in batches
            Await.until("the replica's audit lines in the trail", Await.LONG, () -> trail(org, owner).contains("other.test:" + port)
                    && trail(org, owner).contains("allowed.test:" + port));
            assertThat(trail(org, owner)).contains("other.test:" + port).contains("\"deny\"")
                    .contains("allowed.test:" + port)
                    .contains(id);
            assertThat(problem(http.send("POST", "/v1/egress/audit", owner, "application/x-ndjson", "{}\n"), 403))
                    .isEqualTo("forbidden");
            Http.Response odd = http.send("POST", "/v1/egress/audit", proxyToken, "application/x-ndjson",
                    "not json\n{\"time\":\"2026-11-24T00:00:00Z\",\"verdict\":\"deny\",\"sandbox\":\"nobody\"}\n");
            assertThat(odd.status()).as(odd.raw()).isEqualTo(200);
            assertThat(odd.body().path("malformed").asInt()).isEqualTo(1);
            assertThat(odd.body().path("unknownSandbox").asInt()).isEqualTo(1);

            // a policy update reaches the replica through the feed, without a restart
            assertThat(http.send("PATCH", "/v1/projects/" + project + "/policies/" + policy.text("id"), owner,
                    "application/json", Map.of("name", "one", "allowedDomains", List.of(
                            Map.of("pattern", "allowed.test", "verdict", "allow"),
                            Map.of("pattern", "other.test", "verdict", "allow")))).status()).isEqualTo(200);
            assertThat(until(id, replica.port(), "http://other.test:" + port + "/", "[200]")).endsWith("[200]");

            // a halt denies everything on the replica too; lifting it restores
            assertThat(http.post("/v1/orgs/" + org + "/halt", owner, null).status()).isEqualTo(200);
            assertThat(until(id, replica.port(), "http://allowed.test:" + port + "/", "[403]")).endsWith("[403]");
            assertThat(http.delete("/v1/orgs/" + org + "/halt", owner).status()).isEqualTo(200);
            assertThat(until(id, replica.port(), "http://allowed.test:" + port + "/", "[200]")).endsWith("[200]");

            // revoking the token closes the feed; the replica says so and keeps enforcing its last good set
            Http.Response tokens = http.get("/v1/proxy-tokens", owner);
            String tokenId = tokens.body().path("items").get(0).path("id").asText();
            assertThat(http.delete("/v1/proxy-tokens/" + tokenId, owner).status()).isEqualTo(204);
            // the revocation event closes the open feed on every platform replica
            Await.until("the revoked feed to close", Await.LONG, () -> !replica.feed.status().connected());
            assertThat(curl(id, replica.port(), "http://other.test:" + port + "/")).endsWith("[200]");
            // the reconnect (after the replica's backoff) is refused: the token is revoked
            Await.until("the reconnect to be refused with 401", Await.LONG,
                    () -> String.valueOf(replica.feed.status().lastError()).contains("401"));
            assertThat(log).anySatisfy(l -> assertThat(l).contains("keeping the last good set of 1 sandbox"));
            assertThat(String.join("\n", log)).doesNotContain(proxyToken);
        }
    }

    private String trail(String org, String owner) {
        return http.get("/v1/orgs/" + org + "/audit-trail?kind=egress&limit=500", owner).body().path("items")
                .toString();
    }

    /** What {@code stockade-proxy --platform} runs, in this JVM: on the sandboxes' gateway, on its own port. */
    private final class Replica implements AutoCloseable {
        final ProxyServer server;
        final ControlPlaneSource feed;

        Replica(String token) throws Exception {
            SandboxRegistry registry = SandboxRegistry.dynamic();
            ProxyConfig config = ProxyConfig.builder(dev.stockade.api.support.Scratch.directory("replica"))
                    .bindAddress(InetAddress.getByName(egress.host())).port(0).allowLoopbackOriginsUnsafe(true)
                    .resolve("allowed.test", "127.0.0.1").resolve("other.test", "127.0.0.1").build();
            PlatformAuditSink trail = new PlatformAuditSink(http.base(), token, log::add);
            server = ProxyServer.start(config, () -> Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "sandboxes only"),
                    e -> {
                        audit.add(e);
                        trail.record(e);
                    }, CredentialStore.empty(), registry);
            FeedApplier applier = new FeedApplier(registry, names -> server.closeSandboxConnections(names::contains),
                    log::add);
            feed = new ControlPlaneSource(http.base(), token, applier, log::add).start();
        }

        int port() {
            return server.port();
        }

        @Override
        public void close() {
            feed.close();
            server.close();
        }
    }

    /** curl inside the sandbox through the replica (the sandbox's proxy URL, with the replica's port). */
    private String curl(String sandbox, int replicaPort, String url) throws Exception {
        String script = "curl -sS -m 20 -w ' [%{http_code}]' -x \"$(echo \"$HTTP_PROXY\" | sed 's/:[0-9]*$/:"
                + replicaPort + "/')\" " + url;
        try (ExecProcess p = provisioner.exec(sandbox, new ExecRequest(List.of("sh", "-c", script), false, 0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)
                    + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(30, TimeUnit.SECONDS);
            return out;
        }
    }

    private String until(String sandbox, int replicaPort, String url, String status) throws Exception {
        String[] out = {""};
        // the replica applies the change when the feed delivers it: curl again until it shows (bounded)
        Await.until(url + " to answer " + status, () -> {
            try {
                out[0] = curl(sandbox, replicaPort, url);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return out[0].endsWith(status);
        });
        return out[0];
    }

    private void awaitRunning(String path, String token) {
        http.awaitState(path, token, "running");
    }
}
