package dev.stockade.api.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

/** JSON-RPC over the MCP endpoint as plain HTTP: a session per call (initialize, then the request). */
public final class McpCalls {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newHttpClient();
    private final URI base;

    public McpCalls(URI base) {
        this.base = base;
    }

    /** {@code tools/call} of {@code tool} at {@code /mcp}; returns the JSON-RPC answer. */
    public JsonNode call(String token, String tool, Object args) throws Exception {
        Map<String, Object> params = new HashMap<>();
        params.put("name", tool);
        params.put("arguments", args);
        return request("/mcp", token, "tools/call", params);
    }

    /** {@code method} with {@code params} at {@code path} in a fresh session; returns the JSON-RPC answer. */
    public JsonNode request(String path, String token, String method, Object params) throws Exception {
        HttpResponse<String> init = post(path, token, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"m\","
                + "\"version\":\"1\"}}}");
        String session = init.headers().firstValue("mcp-session-id").orElseThrow(() ->
                new AssertionError("no session: " + init.statusCode() + " " + init.body()));
        HttpResponse<String> r = post(path, token, session, JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 2,
                "method", method, "params", params)));
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> post(String path, String token, String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
