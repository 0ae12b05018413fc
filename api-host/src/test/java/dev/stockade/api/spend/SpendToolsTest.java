package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.api.support.McpCalls;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Spend over MCP: a sandbox sees only its own spend tool and reads only its own spend; an API token reads usage but
 * does not see the spending-limit tools; a person sees and uses them, with the same results as REST.
 */
@MicronautTest(transactional = false)
class SpendToolsTest extends OidcPlatformTest {
    private static final List<String> LIMIT_TOOLS = List.of("list_spending_limits", "set_spending_limit",
            "delete_spending_limit", "set_sandbox_spending_limit", "delete_sandbox_spending_limit");

    @Inject
    UsageLedger ledger;
    @Inject
    SandboxService sandboxes;
    @Inject
    SecretBox box;

    private SpendWorld world;
    private McpCalls mcp;
    private String org;
    private String project;
    private String a;
    private String b;

    @Override
    protected Map<String, String> oidcTestProperties() {
        return SpendWorld.PROPERTIES;
    }

    @BeforeEach
    void spend() {
        String owner = ownerToken();
        world = new SpendWorld(http, owner, ledger);
        mcp = new McpCalls(server.getURI());
        org = world.org();
        project = world.project(org, "agents");
        a = world.sandbox(project, "a");
        b = world.sandbox(project, "b");
        world.spend(org, project, a, "0.4", null);
        world.spend(org, project, b, "3", null);
        world.limit(org, "/org", "100", null, owner);
        world.limit(org, "/projects/" + project + "/sandboxes/" + a, "1", null, owner);
    }

    private List<String> tools(String token) throws Exception {
        List<String> names = new ArrayList<>();
        mcp.request("/mcp", token, "tools/list", Map.of()).path("result").path("tools")
                .forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private JsonNode result(String token, String tool, Object args) throws Exception {
        JsonNode answer = mcp.call(token, tool, args);
        assertThat(answer.has("result")).as(answer.toString()).isTrue();
        return answer.path("result");
    }

    @Test
    void aSandboxSeesOnlyItsOwnSpendAndCannotNameAnother() throws Exception {
        String tokenA = SpendWorld.sandboxToken(sandboxes, box, project, a);
        assertThat(tools(tokenA)).containsExactly("get_own_sandbox", "get_own_spend");
        JsonNode own = result(tokenA, "get_own_spend", Map.of()).path("structuredContent");
        assertThat(own.path("sandboxId").asText()).isEqualTo(a);
        assertThat(own.path("spentUsd").asText()).isEqualTo("0.400000");
        assertThat(own.path("usage").path("calls").asLong()).isEqualTo(1);
        assertThat(own.path("mayCallModels").asBoolean()).isTrue();
        JsonNode orgLimit = own.path("limits").get(0);
        assertThat(orgLimit.path("scope").asText()).isEqualTo("org");
        assertThat(orgLimit.path("remainingUsd").asText()).isEqualTo("96.600000");
        assertThat(orgLimit.path("limitUsd").isNull()).isTrue(); // nothing of others' spend beyond what is left
        assertThat(orgLimit.path("spentUsd").isNull()).isTrue();
        JsonNode cap = own.path("limits").get(1);
        assertThat(cap.path("limitUsd").asText()).isEqualTo("1.000000");
        assertThat(cap.path("remainingUsd").asText()).isEqualTo("0.600000");

        JsonNode other = result(tokenA, "get_own_spend", Map.of("sandboxId", b));
        assertThat(other.path("isError").asBoolean()).isTrue();
        assertThat(other.path("structuredContent").path("code").asText()).isEqualTo("validation_failed");
        assertThat(other.toString()).doesNotContain("3.000000");
        JsonNode refused = mcp.call(tokenA, "get_usage_costs", Map.of("orgId", org, "sandboxId", b));
        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602); // not in its list: unknown

        JsonNode ownB = result(SpendWorld.sandboxToken(sandboxes, box, project, b), "get_own_spend", Map.of());
        assertThat(ownB.path("structuredContent").path("spentUsd").asText()).isEqualTo("3.000000");
        assertThat(ownB.path("structuredContent").path("limits")).hasSize(1);
    }

    @Test
    void anApiTokenReadsUsageButDoesNotSeeTheSpendingLimitTools() throws Exception {
        String token = createApiToken(ownerToken(), org, "ops");
        assertThat(tools(token)).contains("get_usage_costs", "get_usage_timeseries", "query_audit")
                .doesNotContainAnyElementsOf(LIMIT_TOOLS).doesNotContain("get_own_spend");
        JsonNode viaMcp = result(token, "get_usage_costs", Map.of("orgId", org, "groupBy", "sandbox"))
                .path("structuredContent");
        JsonNode viaRest = http.get("/v1/orgs/" + org + "/usage-costs?groupBy=sandbox", token).body();
        assertThat(viaMcp.path("total")).isEqualTo(viaRest.path("total"));
        assertThat(viaMcp.path("groups")).isEqualTo(viaRest.path("groups"));
        assertThat(mcp.call(token, "set_spending_limit", Map.of("orgId", org, "amountUsd", "1")).path("error")
                .path("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void aPersonSetsAndDeletesLimitsThroughTheSameServiceAsRest() throws Exception {
        String owner = ownerToken();
        String person = token("spender", Map.of("email", "spender@example.com", "email_verified", true));
        String userId = http.get("/v1/auth/me", person).text("id");
        assertThat(http.put("/v1/orgs/" + org + "/members/" + userId, owner, Map.of("role", "ADMIN")).status())
                .isEqualTo(204);
        assertThat(tools(person)).containsAll(LIMIT_TOOLS).contains("get_usage_costs").doesNotContain("get_own_spend");
        JsonNode set = result(person, "set_spending_limit", Map.of("orgId", org, "projectId", project,
                "amountUsd", "7", "period", "day"));
        assertThat(set.path("isError").asBoolean()).as(set.toString()).isFalse();
        JsonNode listed = http.get("/v1/orgs/" + org + "/spending-limits", owner).body().path("items");
        assertThat(listed.get(1).path("scope").asText()).isEqualTo("project");
        assertThat(listed.get(1).path("amountUsd").asText()).isEqualTo("7.000000");
        assertThat(listed.get(1).path("updatedBy").asText()).isEqualTo("user:" + userId);
        JsonNode bad = result(person, "set_spending_limit", Map.of("orgId", org, "amountUsd", "lots"));
        assertThat(bad.path("structuredContent").path("code").asText()).isEqualTo("validation_failed");
        JsonNode deleted = result(person, "delete_sandbox_spending_limit", Map.of("projectId", project,
                "sandboxId", a));
        assertThat(deleted.path("isError").asBoolean()).as(deleted.toString()).isFalse();
        JsonNode status = result(person, "list_spending_limits", Map.of("orgId", org)).path("structuredContent");
        assertThat(status.path("items")).hasSize(2);
        assertThat(status.path("items").get(0).path("spentUsd").asText()).isEqualTo("3.400000");
    }

    @Test
    void aSandboxSeesEachBucketItWasChargedForAndUsageToolsShowThemToo() throws Exception {
        // a realtime response of sandbox b: audio in and out, part of the input read from the cache
        ledger.record(new UsageLedger.Usage(java.util.UUID.fromString(org), java.util.UUID.fromString(project),
                java.util.UUID.fromString(b), dev.stockade.policy.model.Provider.OPENAI, "gpt-realtime",
                new TokenBuckets(1_300, 500, 300, 0, 0, 0, 800, 200, 400, 50, 50, 0), 53_775L, true, null));
        JsonNode usage = result(SpendWorld.sandboxToken(sandboxes, box, project, b), "get_own_spend", Map.of())
                .path("structuredContent").path("usage");
        assertThat(usage.path("calls").asLong()).isEqualTo(2);
        assertThat(usage.path("inputTokens").asLong()).isEqualTo(1_000 + 1_300); // the plain call's 1,000 too
        assertThat(usage.path("cacheReadTokens").asLong()).isEqualTo(300);
        assertThat(usage.path("inputAudioTokens").asLong()).isEqualTo(800);
        assertThat(usage.path("cacheReadAudioTokens").asLong()).isEqualTo(200);
        assertThat(usage.path("outputAudioTokens").asLong()).isEqualTo(400);
        assertThat(usage.path("inputImageTokens").asLong()).isEqualTo(50);
        assertThat(usage.path("cacheReadImageTokens").asLong()).isEqualTo(50);
        assertThat(usage.path("cacheWriteTokens").asLong()).isZero();

        JsonNode bySandbox = result(ownerToken(), "get_usage_costs", Map.of("orgId", org, "groupBy", "sandbox",
                "sandboxId", b)).path("structuredContent").path("groups").get(0).path("usage");
        assertThat(bySandbox.path("inputAudioTokens").asLong()).isEqualTo(800);
        JsonNode series = result(ownerToken(), "get_usage_timeseries", Map.of("orgId", org, "sandboxId", b))
                .path("structuredContent").path("buckets");
        long audioOut = 0;
        for (JsonNode bucket : series) {
            audioOut += bucket.path("usage").path("outputAudioTokens").asLong();
        }
        assertThat(audioOut).isEqualTo(400);
    }
}
