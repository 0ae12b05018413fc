package dev.stockade.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The MCP endpoint with real parts on both sides: the official MCP TypeScript SDK client connects to the platform,
 * and {@code @modelcontextprotocol/server-everything} (streamable HTTP) is the upstream connector. Then the upstream
 * is replaced by a second SDK server with another tool set, which a sync turns into a pending spec.
 */
@MicronautTest(transactional = false)
class McpEndpointTest extends OidcPlatformTest {
    private final int upstreamPort = Node.freePort();
    private Process upstream;

    @Override
    protected Map<String, String> oidcTestProperties() {
        return Map.of("connectors.allow-loopback-unsafe", "true");
    }

    /** server-everything on its streamable HTTP transport, fresh (a test may have replaced it). */
    private Process everything() {
        if (upstream != null) {
            upstream.destroyForcibly();
            try {
                upstream.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Node.server(upstreamPort, "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                "streamableHttp");
    }

    @AfterAll
    void stopUpstream() {
        upstream.destroyForcibly();
    }

    private record World(String org, String project, String connector, String policy, String tokenId, String token) {
    }

    private World world(List<String> granted) {
        String owner = ownerToken();
        String org = createOrg(owner, "mcp-" + System.nanoTime());
        String project = createProject(owner, org, "agents");
        Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "everything", "url", "http://127.0.0.1:" + upstreamPort + "/mcp"));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        assertThat(c.body().path("status").asText()).as(c.raw()).isEqualTo("ready");
        String connector = c.text("id");
        Http.Response p = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "tools",
                "connectors", List.of(Map.of("connectorId", connector, "allowedTools", granted))));
        assertThat(p.status()).as(p.raw()).isEqualTo(201);
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner,
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        assertThat(http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", p.text("id"), "apiTokenId", t.text("id"))).status()).isEqualTo(201);
        return new World(org, project, connector, p.text("id"), t.text("id"), t.text("token"));
    }

    private String url(String path) {
        return server.getURI() + path;
    }

    private static List<String> names(JsonNode tools) {
        List<String> out = new ArrayList<>();
        tools.path("names").forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void theSdkClientSeesExactlyTheGrantedToolsCallsOneAndTheCallIsAudited() throws Exception {
        upstream = everything();
        World w = world(List.of("echo", "get-sum"));
        try (Node.Client client = new Node.Client(url("/projects/" + w.project() + "/mcp"), w.token(),
                "everything__echo", "{\"message\":\"hello from the sdk\"}")) {
            JsonNode init = client.next("initialized");
            assertThat(init.path("server").path("name").asText()).isEqualTo("stockade");
            List<String> names = names(client.next("tools"));
            assertThat(names.stream().filter(n -> n.contains("__"))).containsExactly("everything__echo",
                    "everything__get-sum");
            assertThat(names).contains("list_sandboxes", "restart_sandbox", "list_project_policies")
                    .doesNotContain("create_sandbox", "register_connector", "create_org", "list_orgs");
            JsonNode call = client.next("call").path("result");
            assertThat(call.path("isError").asBoolean()).isFalse();
            assertThat(call.path("content").get(0).path("text").asText()).contains("hello from the sdk");
            assertThat(client.finish()).isZero();
        }
        JsonNode trail = http.get("/v1/orgs/" + w.org() + "/audit-trail?kind=tool-call", ownerToken()).body();
        JsonNode entry = trail.path("items").get(0);
        assertThat(entry.path("target").asText()).isEqualTo("everything__echo");
        assertThat(entry.path("outcome").asText()).isEqualTo("success");
        assertThat(entry.path("actor").path("id").asText()).isEqualTo(w.tokenId());
        assertThat(entry.path("projectId").asText()).isEqualTo(w.project());
        assertThat(entry.path("details").path("durationMs").isNumber()).isTrue();
    }

    @Test
    void aToolTheCallerCannotListIsRefusedLikeAnUnknownOneAndTheRefusalIsAudited() throws Exception {
        upstream = everything();
        World w = world(List.of("echo"));
        for (String name : List.of("everything__get-sum", "no_such_tool", "create_sandbox")) {
            try (Node.Client client = new Node.Client(url("/mcp"), w.token(), name, "{}")) {
                JsonNode refused = client.next("call-error");
                assertThat(refused.path("code").asInt()).isEqualTo(-32602);
                assertThat(refused.path("message").asText()).contains("Unknown tool: " + name);
                assertThat(client.finish()).isZero();
            }
        }
        JsonNode denied = http.get("/v1/orgs/" + w.org() + "/audit-trail?kind=tool-call&outcome=denied",
                ownerToken()).body().path("items");
        assertThat(denied).hasSize(3); // a denied call is recorded in the caller's organization
        assertThat(denied.findValuesAsText("target")).containsExactlyInAnyOrder("everything__get-sum", "no_such_tool",
                "create_sandbox");
    }

    @Test
    void aPolicyChangeSendsListChangedAndTheNewListHasOnlyWhatIsGranted() throws Exception {
        upstream = everything();
        World w = world(List.of("echo", "get-sum"));
        try (Node.Client client = new Node.Client(url("/mcp"), w.token(), "", "", "wait")) {
            assertThat(names(client.next("tools"))).contains("everything__echo", "everything__get-sum");
            client.next("ready");
            Http.Response put = http.patch("/v1/projects/" + w.project() + "/policies/" + w.policy(), ownerToken(),
                    Map.of("name", "tools", "connectors", List.of(Map.of("connectorId", w.connector(),
                            "allowedTools", List.of("echo")))));
            assertThat(put.status()).as(put.raw()).isEqualTo(200);
            List<String> after = names(client.next("changed"));
            assertThat(after).contains("everything__echo").doesNotContain("everything__get-sum");
            assertThat(client.finish()).isZero();
        }
    }

    @Test
    void aChangeMadeOnOneReplicaNotifiesASessionOnAnother() throws Exception {
        upstream = everything();
        World w = world(List.of("echo", "get-sum"));
        Map<String, Object> second = new java.util.HashMap<>();
        for (String key : getProperties().keySet()) { // the running replica's values: the same database and data
            server.getApplicationContext().getProperty(key, String.class).ifPresent(v -> second.put(key, v));
        }
        second.put("micronaut.server.port", "-1");
        try (io.micronaut.runtime.server.EmbeddedServer replica = io.micronaut.context.ApplicationContext.run(
                io.micronaut.runtime.server.EmbeddedServer.class, second);
             Node.Client client = new Node.Client(replica.getURI() + "/mcp", w.token(), "", "", "wait")) {
            assertThat(names(client.next("tools"))).contains("everything__get-sum");
            client.next("ready");
            // the change goes to the first replica; the session lives on the second: the signal crosses PostgreSQL
            Http.Response patched = http.patch("/v1/projects/" + w.project() + "/policies/" + w.policy(), ownerToken(),
                    Map.of("name", "tools", "connectors", List.of(Map.of("connectorId", w.connector(),
                            "allowedTools", List.of("echo")))));
            assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
            assertThat(names(client.next("changed"))).contains("everything__echo")
                    .doesNotContain("everything__get-sum");
            assertThat(client.finish()).isZero();
        }
    }

    @Test
    void aChangedUpstreamBecomesAPendingSpecThatExposesNothingUntilPromotedAndNamed() throws Exception {
        upstream = everything();
        World w = world(List.of("echo", "get-sum", "add"));
        String owner = ownerToken();
        upstream.destroyForcibly();
        upstream.waitFor();
        upstream = Node.server(upstreamPort, "second-upstream.mjs");
        JsonNode sync = http.post("/v1/mcp-servers/" + w.connector() + "/sync", owner, null).body();
        assertThat(sync.path("changed").asBoolean()).as(sync.toString()).isTrue();
        String spec = sync.path("pendingSpecId").asText();
        assertThat(http.get("/v1/mcp-servers/" + w.connector() + "/specs/pending", owner).body().path("items"))
                .hasSize(1);
        // nothing new is exposed before promotion: still the old spec's tools
        assertThat(toolNames(w)).containsExactly("everything__echo", "everything__get-sum");
        JsonNode diff = http.get("/v1/mcp-servers/" + w.connector() + "/specs/" + spec + "/diff", owner).body();
        assertThat(diff.path("added").toString()).isEqualTo("[\"add\"]");
        assertThat(diff.path("removed").toString()).contains("get-sum");
        assertThat(diff.path("changed").toString()).isEqualTo("[\"echo\"]");
        Http.Response promoted = http.post("/v1/mcp-servers/" + w.connector() + "/specs/" + spec + "/promote", owner,
                null);
        assertThat(promoted.status()).as(promoted.raw()).isEqualTo(200);
        // the policy names add, so it appears; get-sum is gone upstream; echo is the new version
        assertThat(toolNames(w)).containsExactly("everything__echo", "everything__add");
        Http.Response call = http.post("/v1/mcp-servers/" + w.connector() + "/tools/call", w.token(),
                Map.of("name", "add", "arguments", Map.of("a", 2, "b", 40)));
        assertThat(call.status()).as(call.raw()).isEqualTo(200);
        assertThat(call.body().path("content").get(0).path("text").asText()).isEqualTo("42");
        Http.Response again = http.post("/v1/mcp-servers/" + w.connector() + "/sync", owner, null);
        assertThat(again.body().path("changed").asBoolean()).isFalse();
    }

    @Test
    void aRestCallOnAConnectorIsAuditedUnderTheNameItsToolHasAtEveryEndpoint() throws Exception {
        upstream = everything();
        String owner = ownerToken();
        String org = createOrg(owner, "names-" + System.nanoTime());
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        List<String> servers = new ArrayList<>();
        for (String name : List.of("first", "second")) { // two projects, each with a connector named `everything`
            String project = createProject(owner, org, name);
            Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                    Map.of("name", "everything", "url", "http://127.0.0.1:" + upstreamPort + "/mcp"));
            assertThat(c.status()).as(c.raw()).isEqualTo(201);
            servers.add(c.text("id"));
            Http.Response p = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "tools",
                    "connectors", List.of(Map.of("connectorId", c.text("id"), "allowedTools", List.of("echo")))));
            assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner,
                    Map.of("role", "MEMBER")).status()).isEqualTo(204);
            assertThat(http.post("/v1/projects/" + project + "/policy-bindings", owner,
                    Map.of("policyId", p.text("id"), "apiTokenId", t.text("id"))).status()).isEqualTo(201);
        }
        for (String connector : servers) {
            Http.Response call = http.post("/v1/mcp-servers/" + connector + "/tools/call", t.text("token"),
                    Map.of("name", "echo", "arguments", Map.of("message", "rest")));
            assertThat(call.status()).as(call.raw()).isEqualTo(200);
            JsonNode rest = http.get("/v1/orgs/" + org + "/audit-trail?kind=tool-call", owner).body().path("items")
                    .get(0);
            assertThat(rest.path("details").path("connectorId").asText()).isEqualTo(connector);
            // the same name at /mcp reaches the same connector's tool
            String name = rest.path("target").asText();
            JsonNode viaMcp = new dev.stockade.api.support.McpCalls(server.getURI()).call(t.text("token"), name,
                    Map.of("message", "mcp"));
            assertThat(viaMcp.path("result").path("isError").asBoolean()).as(viaMcp.toString()).isFalse();
            JsonNode mcp = http.get("/v1/orgs/" + org + "/audit-trail?kind=tool-call", owner).body().path("items")
                    .get(0);
            assertThat(mcp.path("details").path("via").asText()).isEqualTo("mcp");
            assertThat(mcp.path("target").asText()).isEqualTo(name);
            assertThat(mcp.path("details").path("connectorId").asText()).as("the tool `%s` is", name)
                    .isEqualTo(connector);
        }
    }

    private List<String> toolNames(World w) throws InterruptedException {
        try (Node.Client client = new Node.Client(url("/projects/" + w.project() + "/mcp"), w.token())) {
            List<String> names = names(client.next("tools"));
            assertThat(client.finish()).isZero();
            return names.stream().filter(n -> n.contains("__")).toList();
        }
    }

    @Test
    void aPersonAnApiTokenAndASandboxEachSeeTheirOwnSurface() throws Exception {
        upstream = everything();
        World w = world(List.of("echo"));
        String owner = ownerToken();
        String person = token("mcp-admin", Map.of("email", "mcp-admin@example.com", "email_verified", true));
        String userId = http.get("/v1/auth/me", person).text("id");
        assertThat(http.put("/v1/orgs/" + w.org() + "/members/" + userId, owner, Map.of("role", "ADMIN")).status())
                .isEqualTo(204);
        try (Node.Client client = new Node.Client(url("/mcp"), person, "list_projects",
                "{\"orgId\":\"" + w.org() + "\"}")) {
            assertThat(names(client.next("tools"))).contains("create_org", "register_connector",
                    "set_project_member", "create_sandbox", "list_orgs", "get_halt_status")
                    .doesNotContain("get_own_sandbox", "set_org_halt"); // halting is the UI's and REST's only
            JsonNode projects = client.next("call").path("result").path("structuredContent").path("items");
            assertThat(projects.get(0).path("id").asText()).isEqualTo(w.project());
            assertThat(client.finish()).isZero();
        }
        String sandbox = http.post("/v1/projects/" + w.project() + "/sandbox-tokens", owner, Map.of("name", "s"))
                .text("token");
        try (Node.Client client = new Node.Client(url("/projects/" + w.project() + "/mcp"), sandbox,
                "get_own_sandbox", "{}")) {
            assertThat(names(client.next("tools"))).containsExactly("get_own_sandbox", "get_own_spend");
            JsonNode own = client.next("call").path("result");
            assertThat(own.path("isError").asBoolean()).isTrue(); // a project sandbox token minted for no sandbox
            assertThat(own.path("content").get(0).path("text").asText()).contains("not_found");
            assertThat(client.finish()).isZero();
        }
        // another organization's project, named in a tool's arguments, does not exist for this token
        String other = createProject(owner, createOrg(owner, "other-" + System.nanoTime()), "hidden");
        try (Node.Client client = new Node.Client(url("/mcp"), w.token(), "get_project",
                "{\"projectId\":\"" + other + "\"}")) {
            JsonNode r = client.next("call").path("result");
            assertThat(r.path("isError").asBoolean()).isTrue();
            assertThat(r.path("structuredContent").path("code").asText()).isEqualTo("not_found");
            assertThat(client.finish()).isZero();
        }
    }
}
