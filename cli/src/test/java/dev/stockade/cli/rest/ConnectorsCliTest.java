package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Connectors and the MCP endpoint through the CLI against the real platform: register an upstream MCP server (a
 * small real one in this test), grant one of its tools to an API token, list and call as that token with
 * {@code stockade mcp}, then change the upstream and review the pending spec.
 */
class ConnectorsCliTest extends SignedInCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private volatile String tools = tool("hello") + "," + tool("secret");
    private final HttpServer upstream = upstream();

    @AfterAll
    void stop() {
        upstream.stop(0);
    }

    @Test
    void addGrantListCallAndReviewAChangedUpstream() throws Exception {
        String org = ok("orgs", "create", "mcp-cli").path("id").asText();
        String project = ok("projects", "create", "--org", org, "agents").path("id").asText();
        String url = "http://127.0.0.1:" + upstream.getAddress().getPort() + "/mcp";
        JsonNode added = ok("connectors", "add", "--project", project, "greeter", url);
        assertThat(added.path("status").asText()).as(added.toString()).isEqualTo("ready");
        String server = added.path("id").asText();
        Cli.Run listed = cli.run("connectors", "list", "--project", project);
        assertThat(listed.toString()).contains("greeter", "ready");

        Path policy = dir.resolve("greeter-policy.yaml");
        Files.writeString(policy, "name: greeter\nconnectors:\n  - connectorId: " + server
                + "\n    allowedTools: [hello]\n");
        String policyId = ok("policies", "create", "--project", project, "-f", policy.toString()).path("id").asText();
        JsonNode token = ok("tokens", "create", "--org", org, "agent");
        String tokenId = token.path("id").asText();
        Cli.Run member = cli.run("projects", "members", "set-token", "--project", project, tokenId, "--role", "MEMBER");
        assertThat(member.status()).as(member.toString()).isZero();
        ok("policy-bindings", "create", "--project", project, "--policy", policyId, "--api-token", tokenId);

        String agent = token.path("token").asText();
        Cli.Run tools = cli.run("mcp", "tools", "--project", project, "--token", agent);
        assertThat(tools.status()).as(tools.toString()).isZero();
        assertThat(tools.toString()).contains("greeter__hello").doesNotContain("greeter__secret");
        Cli.Run call = cli.run("mcp", "call", "greeter__hello", "{\"who\":\"cli\"}", "--project", project,
                "--token", agent);
        assertThat(call.status()).as(call.toString()).isZero();
        assertThat(call.toString()).contains("hello, cli");
        Cli.Run refused = cli.run("mcp", "call", "greeter__secret", "--project", project, "--token", agent);
        assertThat(refused.status()).isNotZero();
        assertThat(refused.toString()).contains("Unknown tool: greeter__secret");

        this.tools = tool("hello") + "," + tool("wave");
        JsonNode sync = ok("connectors", "sync", server);
        assertThat(sync.path("changed").asBoolean()).isTrue();
        String spec = sync.path("pendingSpecId").asText();
        Cli.Run diff = cli.run("connectors", "diff", server, spec);
        assertThat(diff.toString()).contains("+ wave", "- secret");
        ok("connectors", "promote", server, spec);
        Cli.Run hidden = cli.run("connectors", "visibility", server, "hello", "hidden");
        assertThat(hidden.status()).as(hidden.toString()).isZero();
        Cli.Run after = cli.run("mcp", "tools", "--project", project, "--token", agent);
        assertThat(after.toString()).doesNotContain("greeter__");
    }

    private static String tool(String name) {
        return "{\"name\":\"" + name + "\",\"description\":\"says " + name + "\",\"inputSchema\":{\"type\":\"object\"}}";
    }

    private HttpServer upstream() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            s.createContext("/mcp", this::answer);
            s.start();
            return s;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void answer(HttpExchange ex) throws IOException {
        JsonNode msg = JSON.readTree(ex.getRequestBody());
        String id = msg.path("id").toString();
        String result = switch (msg.path("method").asText()) {
            case "initialize" -> "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                    + "\"serverInfo\":{\"name\":\"greeter\",\"version\":\"1\"}}";
            case "tools/list" -> "{\"tools\":[" + tools + "]}";
            case "tools/call" -> "{\"content\":[{\"type\":\"text\",\"text\":\"hello, "
                    + msg.path("params").path("arguments").path("who").asText() + "\"}]}";
            default -> null;
        };
        try (ex) {
            if (result == null) {
                ex.sendResponseHeaders(202, -1);
                return;
            }
            byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
        }
    }
}
