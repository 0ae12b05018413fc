package dev.stockade.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.config.PlatformVersion;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * MCP's streamable HTTP transport, server side, for one POST: a JSON-RPC 2.0 message in, a JSON answer out (the
 * transport allows {@code application/json} for a single response; notifications and responses get 202). Methods:
 * {@code initialize} (opens a session), {@code ping}, {@code tools/list}, {@code tools/call}. Errors follow JSON-RPC:
 * -32700 unreadable JSON, -32600 not a request, -32601 unknown method, -32602 bad parameters or an unknown tool.
 */
@Singleton
record McpServer(McpSessions sessions, ToolCatalog catalog, ToolCalls calls, ObjectMapper json) {
    /** Protocol revisions this server speaks, newest first; an unknown one in {@code initialize} gets the newest. */
    static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    static final String SESSION_HEADER = "Mcp-Session-Id";

    /** What the POST carried besides its body. */
    public record Request(Identity caller, @Nullable UUID projectId, @Nullable String sessionId,
                          @Nullable String protocolVersion, ToolCalls.Origin origin) {
    }

    public MutableHttpResponse<?> post(Request r, @Nullable String body) {
        JsonNode message;
        try {
            message = body == null || body.isBlank() ? null : json.readTree(body);
        } catch (IOException e) {
            return error(HttpStatus.BAD_REQUEST, null, -32700, "Parse error: the body is not JSON");
        }
        if (message == null || message.isArray()) {
            return error(HttpStatus.BAD_REQUEST, null, -32600, message == null ? "Invalid Request: empty body"
                    : "Invalid Request: batches are not supported; send one message per POST");
        }
        JsonNode id = message.get("id");
        if (!message.isObject() || !"2.0".equals(message.path("jsonrpc").asText())
                || id != null && !(id.isTextual() || id.isIntegralNumber())) {
            return error(HttpStatus.BAD_REQUEST, null, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
        }
        String method = message.path("method").asText(null);
        if (method == null) {
            return HttpResponse.accepted(); // a response from the client: this server sends no requests to answer
        }
        if (r.protocolVersion() != null && !VERSIONS.contains(r.protocolVersion())) {
            return error(HttpStatus.BAD_REQUEST, id, -32600, "Unsupported MCP-Protocol-Version `"
                    + clip(r.protocolVersion()) + "`; supported: " + String.join(", ", VERSIONS));
        }
        if (method.equals("initialize")) {
            return id == null ? error(HttpStatus.BAD_REQUEST, null, -32600, "Invalid Request: initialize needs an id")
                    : initialize(r, id, message.path("params"));
        }
        if (r.sessionId() == null || r.sessionId().isBlank()) {
            return error(HttpStatus.BAD_REQUEST, id, -32600, "Bad Request: the " + SESSION_HEADER
                    + " header is required after initialize");
        }
        if (sessions.find(r.caller(), r.projectId(), r.sessionId()) == null) {
            return error(HttpStatus.NOT_FOUND, id, -32001, "Session not found: initialize a new session");
        }
        if (id == null) {
            return HttpResponse.accepted(); // notifications/initialized, cancelled, progress: nothing to answer
        }
        JsonNode params = message.path("params");
        return switch (method) {
            case "ping" -> ok(id, json.createObjectNode());
            case "tools/list" -> listed(id, catalog.listing(r.caller(), r.projectId()).resultJson());
            case "tools/call" -> toolsCall(r, id, params);
            default -> error(HttpStatus.OK, id, -32601, "Method not found: " + clip(method));
        };
    }

    private MutableHttpResponse<?> initialize(Request r, JsonNode id, JsonNode params) {
        String asked = params.path("protocolVersion").asText("");
        String version = VERSIONS.contains(asked) ? asked : VERSIONS.get(0);
        McpSessions.Session s = sessions.open(r.caller(), r.projectId(), version,
                params.path("clientInfo").path("name").asText(null));
        ObjectNode result = json.createObjectNode().put("protocolVersion", version);
        result.putObject("capabilities").putObject("tools").put("listChanged", true);
        result.putObject("serverInfo").put("name", "stockade").put("version", PlatformVersion.VALUE);
        result.put("instructions", r.projectId() == null
                ? "Stockade platform: platform tools and the connector tools your policies grant, in every project"
                        + " you reach."
                : "Stockade platform, project " + r.projectId() + ": its platform tools and the connector tools your"
                        + " policies grant there.");
        return ok(id, result).header(SESSION_HEADER, s.id());
    }

    private MutableHttpResponse<?> toolsCall(Request r, JsonNode id, JsonNode params) {
        String name = params.path("name").asText(null);
        if (name == null || !params.path("name").isTextual()) {
            return error(HttpStatus.OK, id, -32602, "Invalid params: `name` (a string) is required");
        }
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
            return error(HttpStatus.OK, id, -32602, "Invalid params: `arguments` must be an object");
        }
        try {
            return ok(id, calls.call(r.caller(), r.projectId(), name, arguments, r.origin()));
        } catch (ToolCalls.UnknownTool e) {
            return error(HttpStatus.OK, id, -32602, e.getMessage());
        }
    }

    /** The answer to tools/list around the listing's bytes, serialized once per change of what the caller sees. */
    private static MutableHttpResponse<?> listed(JsonNode id, byte[] result) {
        byte[] head = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + result.length + 1];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(result, 0, out, head.length, result.length);
        out[out.length - 1] = '}';
        return HttpResponse.ok(out).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    private MutableHttpResponse<?> ok(JsonNode id, JsonNode result) {
        ObjectNode out = json.createObjectNode().put("jsonrpc", "2.0");
        out.set("id", id);
        out.set("result", result);
        return HttpResponse.ok(out.toString()).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    private MutableHttpResponse<?> error(HttpStatus status, @Nullable JsonNode id, int code, String message) {
        ObjectNode out = json.createObjectNode().put("jsonrpc", "2.0");
        out.set("id", id == null ? json.nullNode() : id);
        out.putObject("error").put("code", code).put("message", message);
        return HttpResponse.status(status).body(out.toString()).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    private static String clip(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }
}
