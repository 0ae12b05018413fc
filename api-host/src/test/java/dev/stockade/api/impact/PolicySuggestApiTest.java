package dev.stockade.api.impact;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.McpCalls;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Verdict;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Policy suggest against the real platform: a real sandbox makes three requests through the in-process egress proxy
 * (two allowed, one denied), and {@code POST .../policy-suggest} drafts a policy from that trail. The expected policy
 * is written from the three requests; the suggestion then replays with nothing newly denied through the impact route.
 */
@MicronautTest(transactional = false)
class PolicySuggestApiTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String IN_FORCE = """
            {"name":"agent","networkDefaultVerdict":"deny","allowedDomains":[
              {"pattern":"allowed.test","verdict":"allow","rules":[{"method":"GET","path":"/a/**"}]},
              {"pattern":"other.test","verdict":"allow"}]}""";

    @Inject
    LocalProvisioner provisioner;

    private SandboxTraffic origin;

    @Override
    protected Map<String, String> extraProperties() {
        return SandboxTraffic.properties();
    }

    @BeforeAll
    void origin() throws Exception {
        Requires.bubblewrap();
        origin = SandboxTraffic.start();
    }

    @AfterAll
    void stopOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    @Test
    void aSuggestionAdmitsWhatTheWindowAllowedAndReplaysWithNothingNewlyDenied() throws Exception {
        int port = origin.port();
        String owner = ownerToken();
        String org = createOrg(owner, "suggest");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies", owner, "application/json",
                IN_FORCE);
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response created = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner,
                "application/yaml", "name: caller\ncpu: 500m\nmemory: 256Mi\npolicies: [" + policy.text("id") + "]\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String sandbox = created.text("id");
        http.awaitState("/v1/projects/" + project + "/sandboxes/" + sandbox, owner, "running");
        Instant since = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

        assertThat(SandboxTraffic.curl(provisioner, sandbox, "http://allowed.test:" + port + "/a/x")).endsWith("[200]");
        assertThat(SandboxTraffic.curl(provisioner, sandbox, "http://other.test:" + port + "/b")).endsWith("[200]");
        assertThat(SandboxTraffic.curl(provisioner, sandbox, "http://denied.test:" + port + "/c")).endsWith("[403]");
        Await.until("three egress entries", Await.LONG, () -> http.get("/v1/orgs/" + org
                + "/audit-trail?kind=egress&limit=100", owner).body().path("items").size() >= 3);

        String body = "{\"since\":\"" + since + "\",\"name\":\"agent\"}";
        JsonNode suggested = suggest("/v1/orgs/" + org, owner, body);
        assertThat(suggested.path("entries").asLong()).isEqualTo(3);
        assertThat(suggested.path("admitted").asLong()).isEqualTo(2);
        assertThat(suggested.path("denied").asLong()).isEqualTo(1);
        assertThat(suggested.path("notPolicyAllow").asLong()).isZero();
        assertThat(suggested.path("otherCallers").asLong()).isZero();
        assertThat(suggested.path("rules").path("minSubdomains").asInt()).isEqualTo(3);
        assertThat(suggested.path("policy").asText())
                .startsWith("# suggested by `stockade policy suggest` from 3 audit entries recorded from ")
                .contains("# admits 2 allowed entries; left out: 1 denied, 0 not a policy's allow\n")
                .endsWith(suggested.path("yaml").asText());

        // the YAML is a policy the core reads, and it names exactly the two endpoints and requests that were allowed
        ReadResult read = PolicyReader.read("suggested.yaml", suggested.path("yaml").asText());
        assertThat(read.valid()).as(String.valueOf(read.problems())).isTrue();
        assertThat(read.policy().name()).isEqualTo("agent");
        assertThat(read.policy().networkDefaultVerdict()).isEqualTo(Verdict.DENY);
        List<DomainEntry> entries = read.policy().domains();
        assertThat(entries).extracting(DomainEntry::pattern)
                .containsExactly("allowed.test:" + port, "other.test:" + port);
        assertThat(operations(entries.get(0))).containsExactly("GET /a/x");
        assertThat(operations(entries.get(1))).containsExactly("GET /b");

        // replayed in place of the policy in force: nothing allowed breaks, and the denied request stays denied
        String candidate = JSON.writeValueAsString(read.tree());
        Http.Response replay = http.send("POST", "/v1/orgs/" + org + "/policy-impact", owner, "application/json",
                "{\"since\":\"" + since + "\",\"policies\":[" + candidate + "]}");
        assertThat(replay.status()).as(replay.raw()).isEqualTo(200);
        assertThat(replay.body().path("newlyDenied").asLong()).isZero();
        assertThat(replay.body().path("newlyAllowed").asLong()).isZero();
        assertThat(replay.body().path("unchanged").asLong()).isEqualTo(3);

        // the project route, narrowed to the sandbox, drafts the same policy; an id of no sandbox in scope is not found
        JsonNode narrowed = suggest("/v1/projects/" + project, owner, "{\"since\":\"" + since + "\",\"name\":\"agent\","
                + "\"sandbox\":\"" + sandbox + "\"}");
        assertThat(narrowed.path("yaml").asText()).isEqualTo(suggested.path("yaml").asText());
        String elsewhere = createOrg(owner, "suggest-elsewhere");
        Http.Response foreign = http.send("POST", "/v1/orgs/" + elsewhere + "/policy-suggest", owner,
                "application/json", "{\"since\":\"" + since + "\",\"sandbox\":\"" + sandbox + "\"}");
        assertThat(problem(foreign, 404)).isEqualTo("not_found");
        assertThat(foreign.raw()).contains(sandbox);

        // the MCP tool answers the same content
        JsonNode tool = new McpCalls(server.getURI()).call(owner, "policy_suggest", Map.of("orgId", org,
                "since", since.toString(), "name", "agent"));
        JsonNode result = tool.path("result");
        assertThat(result.path("isError").asBoolean()).as(tool.toString()).isFalse();
        assertThat(result.path("structuredContent").path("policy").asText())
                .isEqualTo(suggested.path("policy").asText());
    }

    @Test
    void onlyAdminsMaySuggestAndOtherTenantsSeeNothing() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "suggest-access");
        String project = createProject(owner, org, "p");
        Http.Response member = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "member"));
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + member.text("id"), owner,
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        String foreign = createApiToken(owner, createOrg(owner, "suggest-foreign"), "f");
        String sandboxToken = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s"))
                .text("token");
        String body = "{\"since\":\"2026-01-01T00:00:00Z\",\"until\":\"2026-01-02T00:00:00Z\"}";

        assertThat(problem(http.send("POST", "/v1/projects/" + project + "/policy-suggest", member.text("token"),
                "application/json", body), 403)).isEqualTo("forbidden");
        assertThat(problem(http.send("POST", "/v1/orgs/" + org + "/policy-suggest", member.text("token"),
                "application/json", body), 403)).isEqualTo("forbidden");
        assertThat(problem(http.send("POST", "/v1/projects/" + project + "/policy-suggest", foreign,
                "application/json", body), 404)).isEqualTo("not_found");

        // over MCP the member's refusal is answered as a tool error and audited as a denied call
        McpCalls mcp = new McpCalls(server.getURI());
        JsonNode refused = mcp.call(member.text("token"), "project_policy_suggest", Map.of("projectId", project,
                "since", "2026-01-01T00:00:00Z", "until", "2026-01-02T00:00:00Z"));
        assertThat(refused.path("result").path("isError").asBoolean()).as(refused.toString()).isTrue();
        assertThat(refused.path("result").path("structuredContent").path("code").asText()).isEqualTo("forbidden");
        Http.Response audited = http.get("/v1/orgs/" + org + "/audit-trail?kind=tool-call&actorId="
                + member.text("id"), owner);
        assertThat(audited.body().path("items")).anySatisfy(e -> {
            assertThat(e.path("target").asText()).isEqualTo("project_policy_suggest");
            assertThat(e.path("outcome").asText()).isEqualTo("denied");
        });

        // listed for people and API tokens, never for a sandbox
        assertThat(toolNames(mcp.request("/mcp", owner, "tools/list", Map.of())))
                .contains("policy_suggest", "project_policy_suggest");
        assertThat(toolNames(mcp.request("/mcp", sandboxToken, "tools/list", Map.of())))
                .doesNotContain("policy_suggest", "project_policy_suggest");
    }

    @Test
    void badInputIsAProblemBeforeAnythingIsRead() {
        String owner = ownerToken();
        String path = "/v1/orgs/" + createOrg(owner, "suggest-bounds") + "/policy-suggest";
        String day = "\"since\":\"2026-01-01T00:00:00Z\",\"until\":\"2026-01-02T00:00:00Z\"";
        Map<String, String> refusals = Map.of(
                "{\"since\":\"2026-01-01T00:00:00Z\",\"until\":\"2026-01-09T00:00:00Z\"}", "window-too-long",
                "{\"since\":\"2026-01-02T00:00:00Z\",\"until\":\"2026-01-01T00:00:00Z\"}", "window-empty",
                "{\"until\":\"2026-01-02T00:00:00Z\"}", "required",
                "{" + day + ",\"minPaths\":1}", "range",
                "{" + day + ",\"minSubdomains\":\"3\"}", "range",
                "{" + day + ",\"sandbox\":\"not-a-uuid\"}", "type",
                "{" + day + ",\"sandbox\":\"" + UUID.randomUUID() + "\",\"identity\":\"" + UUID.randomUUID() + "\"}",
                "one-selector",
                "{" + day + ",\"ceiling\":[]}", "unknown-field",
                "{" + day + ",\"name\":\" \"}", "empty-name");
        refusals.forEach((body, code) -> {
            Http.Response r = http.send("POST", path, owner, "application/json", body);
            assertThat(problem(r, 400)).as(body).isEqualTo("validation_failed");
            assertThat(r.body().path("errors").get(0).path("code").asText()).as(r.raw()).isEqualTo(code);
        });
        assertThat(problem(http.send("POST", path, owner, "application/json", "{"), 400)).isEqualTo("malformed_json");
        Http.Response unknownSandbox = http.send("POST", path, owner, "application/json",
                "{" + day + ",\"sandbox\":\"" + UUID.randomUUID() + "\"}");
        assertThat(problem(unknownSandbox, 404)).isEqualTo("not_found");
    }

    private JsonNode suggest(String scope, String token, String body) throws Exception {
        Http.Response r = http.send("POST", scope + "/policy-suggest", token, "application/json", body);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return JSON.readTree(r.raw());
    }

    private static List<String> operations(DomainEntry entry) {
        List<String> out = new ArrayList<>();
        for (Rule r : entry.rules() == null ? List.<Rule>of() : entry.rules()) {
            out.add(r.method() + " " + r.path());
        }
        return out;
    }

    private static List<String> toolNames(JsonNode listed) {
        List<String> names = new ArrayList<>();
        listed.path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }
}
