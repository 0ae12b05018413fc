package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.egress.PlatformEgress;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The product end to end, through the REST API only (the command inside the sandbox runs through the provisioner's
 * exec): a policy and a sandbox; curl inside reaches what the policy allows and gets the proxy's 403 elsewhere; a
 * policy update is enforced without a restart; a halt denies and lifting it restores; credentials reach the origin
 * and never the sandbox; every decision is in the audit trail.
 */
@MicronautTest(transactional = false)
class SandboxEndToEndTest extends PlatformTest {
    @Inject
    LocalProvisioner provisioner;
    @Inject
    PlatformEgress egress;

    private HttpServer origin;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("sandbox.egress.allow-loopback-origins", "true",
                "sandbox.egress.resolve", "allowed.test=127.0.0.1,other.test=127.0.0.1");
    }

    @BeforeAll
    void origin() throws Exception {
        Requires.bubblewrap();
        origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.createContext("/", ex -> {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            byte[] body = ("origin saw " + ex.getRequestHeaders().getFirst("Host") + " auth=" + auth)
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.createContext("/slow", ex -> {
            slowArrived.countDown();
            try {
                Thread.sleep(20_000); // an answer that comes long after the halt: only a closed connection misses it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "late".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        origin.start();
    }

    private final java.util.concurrent.CountDownLatch slowArrived = new java.util.concurrent.CountDownLatch(1);

    @AfterAll
    void stopOrigin() {
        if (origin != null) {
            origin.stop(0);
        }
    }

    private String curl(String sandbox, String... args) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("curl", "-sS", "-m", "20", "-w", " [%{http_code}]"));
        argv.addAll(List.of(args));
        try (ExecProcess p = provisioner.exec(sandbox, new ExecRequest(argv, false, 0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)
                    + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(30, TimeUnit.SECONDS);
            return out;
        }
    }

    private JsonNode awaitState(String path, String token, String state) {
        return http.awaitState(path, token, state);
    }

    private void awaitEnforced(long before) throws InterruptedException {
        // the proxy applies changes after the event wakes it
        Await.until("the proxy to apply a version after " + before, () -> egress.appliedVersion() > before);
    }

    @Test
    void aSandboxReachesExactlyWhatItsPolicyAllowsFollowsUpdatesAndHalts() throws Exception {
        int port = origin.getAddress().getPort();
        String owner = ownerToken();
        String org = createOrg(owner, "e2e");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies", owner, "application/yaml", """
                name: allow-one
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: allowed.test
                    verdict: allow
                credentials:
                  - credentialName: origin-key
                    envVarKey: ORIGIN_KEY
                """);
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        String secret = "e2e-secret-" + java.util.UUID.randomUUID();
        Http.Response cred = http.post("/v1/projects/" + project + "/credentials", owner, Map.of("name", "origin-key",
                "secret", secret, "domains", List.of("allowed.test:" + port),
                "headerFormat", "Authorization: Bearer {secret}"));
        assertThat(cred.status()).as(cred.raw()).isEqualTo(201);

        Http.Response created = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner,
                "application/yaml", "name: worker\ncpu: 500m\nmemory: 256Mi\npolicies: [" + policy.text("id")
                        + "]\ncredentials: [" + cred.text("id") + "]\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        assertThat(created.text("state")).isEqualTo("creating");
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        String id = created.text("id");
        awaitState(path, owner, "running");

        String allowed = curl(id, "http://allowed.test:" + port + "/hello");
        assertThat(allowed).startsWith("origin saw allowed.test:" + port).endsWith("[200]");
        String denied = curl(id, "http://other.test:" + port + "/");
        assertThat(denied).endsWith("[403]").doesNotContain("origin saw");
        // a CONNECT to a host the policy does not route upstream: the proxy's 403 to the tunnel
        String tunnel = curl(id, "https://other.test:" + port + "/");
        assertThat(tunnel).contains("403").doesNotContain("origin saw");
        // the sentinel is in the sandbox; the proxy swaps it for the secret only on the way to the origin
        String env = curl(id, "-H", "Authorization: Bearer $ORIGIN_KEY", "http://allowed.test:" + port + "/");
        assertThat(env).doesNotContain(secret);
        try (ExecProcess p = provisioner.exec(id, new ExecRequest(List.of("sh", "-c",
                "curl -sS -m 20 -H \"Authorization: Bearer $ORIGIN_KEY\" http://allowed.test:" + port + "/; echo;"
                        + " echo \"$ORIGIN_KEY\""), false, 0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).contains("__platform_cred:");
            assertThat(out.lines().toList().get(1)).doesNotContain(secret);
        }

        // a policy update is enforced on the running sandbox without a restart
        long before = egress.appliedVersion();
        Http.Response patched = http.send("PATCH", "/v1/projects/" + project + "/policies/" + policy.text("id"), owner,
                "application/json", Map.of("name", "allow-one", "allowedDomains", List.of(
                        Map.of("pattern", "allowed.test", "verdict", "allow"),
                        Map.of("pattern", "other.test", "verdict", "allow"))));
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        awaitEnforced(before);
        assertThat(curl(id, "http://other.test:" + port + "/")).endsWith("[200]");

        // a halt closes what is open, denies everything new; lifting it restores
        java.util.concurrent.CompletableFuture<String> open = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return curl(id, "-m", "60", "http://allowed.test:" + port + "/slow");
            } catch (Exception e) {
                return "failed: " + e;
            }
        });
        assertThat(slowArrived.await(30, TimeUnit.SECONDS)).isTrue();
        before = egress.appliedVersion();
        assertThat(http.post("/v1/orgs/" + org + "/halt", owner, null).status()).isEqualTo(200);
        String cut = open.get(60, TimeUnit.SECONDS);
        assertThat(cut).doesNotContain("late").contains("[000]");
        String halted = "";
        for (int i = 0; i < 100 && !halted.endsWith("[403]"); i++) {
            halted = curl(id, "http://allowed.test:" + port + "/");
        }
        assertThat(halted).endsWith("[403]");
        assertThat(http.delete("/v1/orgs/" + org + "/halt", owner).status()).isEqualTo(200);
        String lifted = "";
        for (int i = 0; i < 100 && !lifted.endsWith("[200]"); i++) {
            lifted = curl(id, "http://allowed.test:" + port + "/");
        }
        assertThat(lifted).endsWith("[200]");

        // the proxy hands its lines to the platform's audit appender, which commits them in batches of its own:
        // a line may land after the curl that caused it has returned
        java.util.function.Supplier<String> trail = () -> http.get("/v1/orgs/" + org
                + "/audit-trail?kind=egress&limit=500", owner).body().path("items").toString();
        Await.until("the egress lines in the trail", Await.LONG, () -> List.of("\"deny\"", "\"allow\"", "other.test", "CONNECT")
                .stream().allMatch(trail.get()::contains));
        assertThat(trail.get()).contains("\"deny\"").contains("\"allow\"").contains("other.test").contains("CONNECT")
                .doesNotContain(secret);

        assertThat(http.post(path + "/stop", owner, null).status()).isEqualTo(202);
        awaitState(path, owner, "stopped");
        assertThat(http.delete(path, owner).status()).isEqualTo(204);
        assertThat(problem(http.get(path, owner), 404)).isEqualTo("not_found");
    }
}
