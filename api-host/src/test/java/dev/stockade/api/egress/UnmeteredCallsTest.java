package dev.stockade.api.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.EgressReason;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Which egress decisions become unmetered ledger rows, through the real audit appender, ledger and usage read: one row
 * per allowed request and per spliced connection to a managed provider's host; none for the CONNECT that opens an
 * intercepted tunnel (its requests count), a websocket message, a denial, an origin that was never reached, or a
 * vendor that is not one of the platform's providers. A proxy replica's shipped line is flagged and counted the same.
 */
@MicronautTest(transactional = false)
class UnmeteredCallsTest extends PlatformTest {
    @Inject
    AuditAppender appender;
    @Inject
    UnmeteredCalls unmetered;

    private static AuditEvent.Builder line(String sandbox, String listener, String host, String verdict) {
        return AuditEvent.builder().time(Instant.now()).listener(listener).sandbox(sandbox).target(host, 443)
                .verdict(verdict).reason("allow".equals(verdict) ? EgressReason.RULE_ALLOW : EgressReason.ENTRY_DENY);
    }

    @Test
    void oneRowPerAllowedRequestOrSplicedConnectionToAManagedProvider() {
        String owner = ownerToken();
        String org = createOrg(owner, "ledger-rows");
        String project = createProject(owner, org, "agents");
        String sandbox = UUID.randomUUID().toString();
        EgressAudit audit = new EgressAudit(appender, name -> sandbox.equals(name)
                ? new EgressAudit.Owner(UUID.fromString(org), UUID.fromString(project)) : null, unmetered);

        audit.record(line(sandbox, "connect", "api.openai.com", "allow").method("CONNECT").build());
        audit.record(line(sandbox, "websocket", "api.openai.com", "allow").method("GET").path("/v1/realtime").build());
        audit.record(line(sandbox, "intercepted", "api.openai.com", "deny").method("POST").path("/v1/x").build());
        audit.record(line(sandbox, "http", "api.openai.com", "allow").method("POST").path("/v1/x")
                .reason(EgressReason.ORIGIN_UNREACHABLE).status(502).build());
        audit.record(line(sandbox, "intercepted", "api.anthropic.com", "allow").method("POST").path("/v1/messages")
                .build());
        audit.record(line(sandbox, "intercepted", "api.github.com", "allow").method("GET").path("/").build());
        audit.record(line("someone-else", "intercepted", "api.openai.com", "allow").method("POST").path("/").build());
        // the counted ones last: the writer is one queue, so when they are read every line above was handled
        audit.record(line(sandbox, "passthrough", "bedrock-runtime.us-east-1.amazonaws.com", "allow").build());
        audit.record(line(sandbox, "intercepted", "API.OPENAI.COM.", "allow").method("POST")
                .path("/v1/chat/completions").status(200).build());
        audit.record(line(sandbox, "http", "my-resource.openai.azure.com", "allow").method("POST").path("/openai/x")
                .status(200).build());

        String usage = "/v1/orgs/" + org + "/usage-costs?groupBy=provider";
        Await.until("three unmetered calls in the usage read", Await.LONG,
                () -> http.get(usage, owner).body().path("total").path("unmeteredCalls").asLong() >= 3);
        JsonNode report = http.get(usage, owner).body();
        assertThat(report.path("total").path("unmeteredCalls").asLong()).isEqualTo(3);
        for (String bucket : new String[] {"inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens",
                "cacheWrite1hTokens", "reasoningTokens", "inputAudioTokens", "cacheReadAudioTokens",
                "outputAudioTokens", "inputImageTokens", "cacheReadImageTokens", "webSearches"}) {
            // the proxy never reads such a call's body: every bucket of its row is 0, none is left out
            assertThat(report.path("total").path(bucket).isNumber()).as(bucket).isTrue();
            assertThat(report.path("total").path(bucket).asLong()).as(bucket).isZero();
        }
        Map<String, Long> byProvider = new HashMap<>();
        report.path("groups").forEach(g -> byProvider.put(g.path("provider").asText(),
                g.path("usage").path("unmeteredCalls").asLong()));
        assertThat(byProvider).containsExactlyInAnyOrderEntriesOf(Map.of("openai", 1L, "bedrock", 1L, "azure", 1L));
    }

    @Test
    void theLedgerRowsAreNotCountedTowardLimits() {
        String owner = ownerToken();
        String org = createOrg(owner, "limits-untouched");
        String project = createProject(owner, org, "agents");
        assertThat(http.put("/v1/orgs/" + org + "/spending-limits/org", owner, Map.of("amountUsd", "0.000001"))
                .status()).isEqualTo(200);
        String sandbox = UUID.randomUUID().toString();
        EgressAudit audit = new EgressAudit(appender, name -> new EgressAudit.Owner(UUID.fromString(org),
                UUID.fromString(project)), unmetered);
        audit.record(line(sandbox, "http", "api.openai.com", "allow").method("POST").path("/v1/x").build());

        Await.until("the unmetered call in the usage read", Await.LONG, () -> http.get("/v1/orgs/" + org
                + "/usage-costs?groupBy=", owner).body().path("total").path("unmeteredCalls").asLong() == 1);
        JsonNode status = http.get("/v1/orgs/" + org + "/spending-limits/status", owner).body().path("items").get(0);
        assertThat(status.path("spentUsd").asText()).isEqualTo("0.000000");
        assertThat(status.path("exceeded").asBoolean()).isFalse();
    }

    @Test
    void aReplicasLineIsFlaggedAndCountedByThePlatformsListEvenWithoutTheKey() {
        Requires.bubblewrap();
        String owner = ownerToken();
        String org = createOrg(owner, "replica-lines");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies",
                owner, "application/yaml", "name: p\nnetworkDefaultVerdict: deny\n");
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response sandbox = http.send("POST", "/v1/projects/" + project + "/sandboxes",
                owner, "application/yaml", "name: edge\ncpu: 500m\nmemory: 256Mi\npolicies: [" + policy.text("id")
                        + "]\n");
        assertThat(sandbox.status()).as(sandbox.raw()).isEqualTo(201);
        String proxyToken = http.post("/v1/proxy-tokens", owner, Map.of("name", "edge-1")).text("token");
        // an older replica writes no unmeteredProvider key: the platform flags the line from its host
        String shipped = line(sandbox.text("id"), "intercepted", "api.openai.com", "allow").method("POST")
                .path("/v1/responses").status(200).build().toJson().replace(",\"unmeteredProvider\":\"openai\"", "");
        assertThat(shipped).doesNotContain("unmeteredProvider");
        Http.Response posted = http.send("POST", "/v1/egress/audit", proxyToken,
                "application/x-ndjson", shipped + "\n");
        assertThat(posted.status()).as(posted.raw()).isEqualTo(200);
        assertThat(posted.body().path("accepted").asInt()).isEqualTo(1);

        Await.until("the replica's call in the usage read", Await.LONG, () -> http.get("/v1/orgs/" + org
                + "/usage-costs?groupBy=provider", owner).body().path("total").path("unmeteredCalls").asLong() == 1);
        // the audit entry is committed by the appender's group commit, apart from the ledger row: wait for it too
        Await.until("the replica's line in the audit trail", Await.LONG, () -> http.get("/v1/orgs/" + org
                + "/audit-trail?kind=egress&limit=10", owner).body().path("items").size() == 1);
        JsonNode entry = http.get("/v1/orgs/" + org + "/audit-trail?kind=egress&limit=10", owner).body()
                .path("items").get(0);
        assertThat(entry.path("details").path("unmeteredProvider").asText()).isEqualTo("openai");
    }
}
