package dev.stockade.api.impact;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.McpCalls;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.OidcPlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Tool calls of a person and of an API token replayed under candidates: a real upstream
 * ({@code @modelcontextprotocol/server-everything}) is a connector; a person calls its {@code echo} at {@code /mcp} and
 * at the project's endpoint, an API token over the REST route, each granted by a policy bound to it. Removing
 * {@code echo} from that policy newly denies every call; the policy as stored leaves them unchanged; a caller that
 * left the project has no candidate.
 */
@MicronautTest(transactional = false)
class IdentityToolCallReplayTest extends OidcPlatformTest {
    private final int upstreamPort = Node.freePort();
    private Process upstream;

    @Override
    protected Map<String, String> oidcTestProperties() {
        return Map.of("connectors.allow-loopback-unsafe", "true");
    }

    @AfterAll
    void stopUpstream() {
        if (upstream != null) {
            upstream.destroyForcibly();
        }
    }

    @Test
    void aPersonsAndAnApiTokensToolCallsAreNewlyDeniedWhenTheCandidateRemovesTheGrant() throws Exception {
        upstream = Node.server(upstreamPort, "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                "streamableHttp");
        String owner = ownerToken();
        String org = createOrg(owner, "identity-replay");
        String project = createProject(owner, org, "agents");
        Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "everything", "url", "http://127.0.0.1:" + upstreamPort + "/mcp"));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        String connector = c.text("id");
        Http.Response policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "tools",
                "connectors", List.of(Map.of("connectorId", connector, "allowedTools", List.of("echo", "get-sum")))));
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);

        String person = token("replayed-person", Map.of("email", "replayed-person@example.com",
                "email_verified", true));
        String userId = http.get("/v1/auth/me", person).text("id");
        assertThat(http.put("/v1/orgs/" + org + "/members/" + userId, owner, Map.of("role", "MEMBER")).status())
                .isEqualTo(204);
        assertThat(http.put("/v1/projects/" + project + "/members/users/" + userId, owner, Map.of("role", "MEMBER"))
                .status()).isEqualTo(204);
        assertThat(http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy.text("id"), "userId", userId)).status()).isEqualTo(201);
        Http.Response apiToken = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + apiToken.text("id"), owner,
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        assertThat(http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy.text("id"), "apiTokenId", apiToken.text("id"))).status()).isEqualTo(201);

        McpCalls mcp = new McpCalls(server.getURI());
        JsonNode viaMcp = mcp.call(person, "everything__echo", Map.of("message", "hi"));
        assertThat(viaMcp.path("result").path("isError").asBoolean()).as(viaMcp.toString()).isFalse();
        JsonNode viaProject = mcp.request("/projects/" + project + "/mcp", person, "tools/call",
                Map.of("name", "everything__echo", "arguments", Map.of("message", "hi")));
        assertThat(viaProject.path("result").path("isError").asBoolean()).as(viaProject.toString()).isFalse();
        Http.Response viaRest = http.post("/v1/mcp-servers/" + connector + "/tools/call", apiToken.text("token"),
                Map.of("name", "echo", "arguments", Map.of("message", "hi")));
        assertThat(viaRest.status()).as(viaRest.raw()).isEqualTo(200);
        Await.until("three tool-call entries", Await.BOUND, () -> http.get("/v1/orgs/" + org
                + "/audit-trail?kind=tool-call", owner).body().path("items").size() >= 3);

        // echo no longer granted: all three recorded calls would be refused, grouped by caller
        JsonNode narrowed = impact(owner, org, connector, "\"get-sum\"");
        assertThat(narrowed.path("entries").asLong()).isEqualTo(3);
        assertThat(narrowed.path("notReplayable").asLong()).isZero();
        assertThat(narrowed.path("newlyDenied").asLong()).isEqualTo(3);
        Map<String, Long> byCaller = new HashMap<>();
        narrowed.path("deniedGroups").forEach(g -> {
            assertThat(g.path("kind").asText()).isEqualTo("tool-call");
            assertThat(g.path("target").asText()).isEqualTo(connector);
            assertThat(g.path("operation").asText()).isEqualTo("echo");
            byCaller.put(g.path("sandbox").asText(), g.path("count").asLong());
        });
        assertThat(byCaller).isEqualTo(Map.of("user:" + userId, 2L, "api-token:" + apiToken.text("id"), 1L));

        // the grant as stored: all unchanged
        JsonNode same = impact(owner, org, connector, "\"echo\", \"get-sum\"");
        assertThat(same.path("unchanged").asLong()).isEqualTo(3);
        assertThat(same.path("newlyDenied").asLong()).isZero();
        assertThat(same.path("notReplayable").asLong()).isZero();

        // the API token leaves the project: it reaches no project, so its call has no candidate, never a change
        assertThat(http.delete("/v1/projects/" + project + "/members/api-tokens/" + apiToken.text("id"), owner)
                .status()).isEqualTo(204);
        JsonNode left = impact(owner, org, connector, "\"get-sum\"");
        assertThat(left.path("newlyDenied").asLong()).isEqualTo(2);
        assertThat(left.path("notReplayable").asLong()).isEqualTo(1);
        assertThat(left.path("notReplayableBy").get(0).path("reason").asText()).isEqualTo("no-candidate");
    }

    private JsonNode impact(String owner, String org, String connector, String tools) {
        String candidate = "{\"name\":\"tools\",\"connectors\":[{\"connectorId\":\"" + connector
                + "\",\"allowedTools\":[" + tools + "]}]}";
        Http.Response r = http.send("POST", "/v1/orgs/" + org + "/policy-impact", owner, "application/json",
                "{\"since\":\"" + Instant.now().minus(1, ChronoUnit.HOURS) + "\",\"policies\":[" + candidate + "]}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }
}
