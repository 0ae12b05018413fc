package dev.stockade.api.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real sandbox calling a model provider's API directly through the platform's egress proxy instead of its metered
 * {@code /llm} route: provider names resolve to a loopback origin ({@code sandbox.egress.resolve}), so curl inside the
 * sandbox reaches it as it would reach the provider. The audit trail flags every decision about a provider's host,
 * allowed or denied; the allowed call shows in usage as one unmetered call; a non-provider host is not flagged.
 */
@MicronautTest(transactional = false)
class UnmeteredProviderEndToEndTest extends PlatformTest {
    @Inject
    LocalProvisioner provisioner;
    @Inject
    PlatformEgress egress;

    private HttpServer origin;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("sandbox.egress.allow-loopback-origins", "true",
                "sandbox.egress.resolve", "api.openai.com=127.0.0.1,openrouter.ai=127.0.0.1,allowed.test=127.0.0.1");
    }

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

    private String curl(String sandbox, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("curl", "-sS", "-m", "20", "-w", " [%{http_code}]"));
        argv.addAll(List.of(args));
        try (ExecProcess p = provisioner.exec(sandbox, new ExecRequest(argv, false, 0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)
                    + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(30, TimeUnit.SECONDS);
            return out;
        }
    }

    @Test
    void aDirectProviderCallIsFlaggedInTheTrailAndCountedAsOneUnmeteredCall() throws Exception {
        int port = origin.getAddress().getPort();
        String owner = ownerToken();
        String org = createOrg(owner, "direct-calls");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies", owner, "application/yaml", """
                name: reach-openai
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: api.openai.com
                    verdict: allow
                  - pattern: allowed.test
                    verdict: allow
                """);
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response created = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner,
                "application/yaml", "name: caller\ncpu: 500m\nmemory: 256Mi\npolicies: [" + policy.text("id") + "]\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        http.awaitState("/v1/projects/" + project + "/sandboxes/" + id, owner, "running");

        // denied first: the ledger's writer is one queue, so once the allowed call's row is read, a row this
        // denied call wrongly made would have been written before it
        assertThat(curl(id, "-X", "POST", "http://openrouter.ai:" + port + "/api/v1/chat/completions"))
                .endsWith("[403]").doesNotContain("origin saw");
        assertThat(curl(id, "http://allowed.test:" + port + "/v1/models"))
                .isEqualTo("origin saw allowed.test:" + port + " [200]");
        assertThat(curl(id, "-X", "POST", "-d", "{\"model\":\"gpt-4o\"}", "http://api.openai.com:" + port
                + "/v1/chat/completions")).isEqualTo("origin saw api.openai.com:" + port + " [200]");

        Await.until("the three egress entries in the trail", Await.LONG, () -> egressEntries(org, owner).size() >= 3);
        List<JsonNode> entries = egressEntries(org, owner);
        JsonNode direct = entry(entries, "api.openai.com:" + port);
        assertThat(direct.path("action").asText()).isEqualTo("allow");
        assertThat(direct.path("details").path("unmeteredProvider").asText()).isEqualTo("openai");
        JsonNode denied = entry(entries, "openrouter.ai:" + port);
        assertThat(denied.path("action").asText()).isEqualTo("deny");
        assertThat(denied.path("details").path("unmeteredProvider").asText()).isEqualTo("openrouter");
        assertThat(entry(entries, "allowed.test:" + port).path("details").has("unmeteredProvider")).isFalse();

        String usage = "/v1/orgs/" + org + "/usage-costs?groupBy=provider,sandbox";
        Await.until("the unmetered call in the usage read", Await.LONG,
                () -> http.get(usage, owner).body().path("total").path("unmeteredCalls").asLong() > 0);
        JsonNode report = http.get(usage, owner).body();
        assertThat(report.path("total").path("unmeteredCalls").asLong()).isEqualTo(1);
        assertThat(report.path("total").path("calls").asLong()).isEqualTo(1);
        assertThat(report.path("groups").size()).isEqualTo(1);
        JsonNode group = report.path("groups").get(0);
        assertThat(group.path("provider").asText()).isEqualTo("openai");
        assertThat(group.path("sandboxId").asText()).isEqualTo(id);
        assertThat(group.path("usage").path("unmeteredCalls").asLong()).isEqualTo(1);
        assertThat(group.path("usage").path("inputTokens").asLong()).isZero();
        assertThat(group.path("usage").path("costUsd").asText()).isEqualTo("0.000000");
        Http.Response model = http.get("/v1/orgs/" + org + "/usage-costs?groupBy=model", owner);
        assertThat(model.body().path("groups").get(0).path("model").asText()).isEqualTo("unknown");
    }

    private List<JsonNode> egressEntries(String org, String token) {
        List<JsonNode> out = new ArrayList<>();
        http.get("/v1/orgs/" + org + "/audit-trail?kind=egress&limit=100", token).body().path("items")
                .forEach(out::add);
        return out;
    }

    private static JsonNode entry(List<JsonNode> entries, String target) {
        return entries.stream().filter(e -> target.equals(e.path("target").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no egress entry for " + target + " in " + entries));
    }
}
