package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.config.PlatformVersion;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Speaks MCP's streamable HTTP transport to upstream servers: {@code initialize}, {@code tools/list} (every page)
 * and {@code tools/call}, with the session the upstream assigns kept per URL and re-opened when it expires. Every
 * dial passes the dial guard; redirects are refused; every exchange has a deadline that covers the whole answer
 * and a size bound; an answer that is not JSON-RPC, or arrives with another content type, is an
 * {@link UpstreamException} with a message safe to show a caller. Exchanges can be cancelled (a halt).
 */
@Singleton
public class UpstreamClient {
    /** The protocol revision asked for; an upstream may answer with an older one it supports. */
    static final String PROTOCOL = "2025-06-18";

    /**
     * A tool as an upstream lists it; {@code operation} is null for an MCP upstream and, for an HTTP connector, the
     * operation a call becomes (method, path, where each argument goes).
     */
    public record Tool(String name, String description, JsonNode inputSchema,
                       @io.micronaut.core.annotation.Nullable JsonNode operation) {
        public Tool(String name, String description, JsonNode inputSchema) {
            this(name, description, inputSchema, null);
        }
    }

    private final ConnectorSettings settings;
    private final GuardedHttp http;
    private final ObjectMapper json;
    private final Map<String, String> sessions = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    public UpstreamClient(ConnectorSettings settings, GuardedHttp http, ObjectMapper json) {
        this.json = json;
        this.settings = settings;
        this.http = http;
    }

    /** Opens a fresh session and lists every tool the upstream offers. */
    public List<Tool> discover(URI url, Map<String, String> headers) throws UpstreamException {
        String session = initialize(url, headers, Cancellation.none());
        sessions.put(key(url, headers), session);
        List<Tool> out = new ArrayList<>();
        String cursor = null;
        do {
            ObjectNode params = json.createObjectNode();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            JsonNode result = request(url, headers, session, "tools/list", params, Cancellation.none());
            JsonNode tools = result.path("tools");
            if (!tools.isArray()) {
                throw new UpstreamException("the upstream's tools/list answer has no `tools` array");
            }
            for (JsonNode t : tools) {
                if (!t.path("name").isTextual() || t.path("name").asText().isEmpty()) {
                    throw new UpstreamException("the upstream listed a tool without a name");
                }
                JsonNode schema = t.path("inputSchema").isObject() ? t.path("inputSchema")
                        : json.createObjectNode().put("type", "object");
                out.add(new Tool(t.path("name").asText(), t.path("description").asText(""), schema));
                if (out.size() > settings.maxTools()) {
                    throw new UpstreamException("the upstream lists more than " + settings.maxTools() + " tools");
                }
            }
            cursor = result.path("nextCursor").isTextual() ? result.path("nextCursor").asText() : null;
        } while (cursor != null);
        return out;
    }

    /** Calls one tool; returns the upstream's {@code CallToolResult} as it sent it. */
    public JsonNode call(URI url, Map<String, String> headers, String tool, JsonNode arguments, Cancellation cancel)
            throws UpstreamException {
        ObjectNode params = json.createObjectNode().put("name", tool);
        params.set("arguments", arguments == null || arguments.isNull() ? json.createObjectNode() : arguments);
        String key = key(url, headers);
        String session = sessions.get(key);
        if (session != null) {
            try {
                return request(url, headers, session, "tools/call", params, cancel);
            } catch (SessionExpired e) {
                sessions.remove(key, session);
            }
        }
        session = initialize(url, headers, cancel);
        sessions.put(key, session);
        return request(url, headers, session, "tools/call", params, cancel);
    }

    private String initialize(URI url, Map<String, String> headers, Cancellation cancel) throws UpstreamException {
        ObjectNode params = json.createObjectNode().put("protocolVersion", PROTOCOL);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "stockade").put("version", PlatformVersion.VALUE);
        Answer answer = exchange(url, headers, null, message("initialize", params), cancel);
        if (!answer.body.path("result").path("protocolVersion").isTextual()) {
            throw new UpstreamException("the upstream's initialize answer names no protocol version");
        }
        String session = answer.session == null ? "" : answer.session;
        exchange(url, headers, session, json.createObjectNode().put("jsonrpc", "2.0")
                .put("method", "notifications/initialized"), cancel);
        return session;
    }

    private JsonNode request(URI url, Map<String, String> headers, String session, String method, ObjectNode params,
                             Cancellation cancel) throws UpstreamException {
        JsonNode body = exchange(url, headers, session, message(method, params), cancel).body;
        if (body.has("error")) {
            throw new UpstreamException("the upstream answered " + method + " with error "
                    + body.path("error").path("code").asText("?") + ": " + clip(body.path("error").path("message").asText("")));
        }
        if (!body.path("result").isObject()) {
            throw new UpstreamException("the upstream's " + method + " answer is not a JSON-RPC result");
        }
        return body.path("result");
    }

    private ObjectNode message(String method, ObjectNode params) {
        ObjectNode m = json.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet())
                .put("method", method);
        m.set("params", params);
        return m;
    }

    /** What one POST brought back: the JSON-RPC response (null for a notification) and the session header. */
    private record Answer(JsonNode body, String session) {
    }

    private Answer exchange(URI url, Map<String, String> headers, String session, ObjectNode message,
                            Cancellation cancel) throws UpstreamException {
        HttpRequest.Builder out = HttpRequest.newBuilder(url).timeout(http.settings().callTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        headers.forEach(out::header);
        if (session != null && !session.isEmpty()) {
            out.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", PROTOCOL);
        }
        try (GuardedHttp.Opened answer = http.open(out.build(), cancel)) {
            return read(answer, message, session);
        } catch (IOException e) {
            throw http.readFailure(e, cancel);
        }
    }

    private Answer read(GuardedHttp.Opened opened, ObjectNode message, String session)
            throws IOException, UpstreamException {
        int status = opened.status();
        InputStream body = opened.body();
        String sessionHeader = opened.header("mcp-session-id") != null ? opened.header("mcp-session-id") : session;
        // 404 is what the transport specifies for a forgotten session; some servers (server-everything) answer 400
        if ((status == 404 || status == 400) && session != null && !session.isEmpty() && sessionInUse(message)) {
            throw new SessionExpired();
        }
        if (status >= 300 && status < 400) {
            throw new UpstreamException("the upstream redirected (" + status + "); redirects are not followed");
        }
        if (!message.has("id")) {
            if (status >= 400) {
                throw new UpstreamException("the upstream refused a notification with HTTP " + status);
            }
            body.transferTo(java.io.OutputStream.nullOutputStream());
            return new Answer(null, sessionHeader);
        }
        if (status != 200) {
            throw new UpstreamException("the upstream answered HTTP " + status);
        }
        String type = opened.header("content-type") == null ? ""
                : opened.header("content-type").toLowerCase(java.util.Locale.ROOT);
        JsonNode answer;
        if (type.startsWith("application/json")) {
            answer = parse(body.readAllBytes());
        } else if (type.startsWith("text/event-stream")) {
            answer = SseMessages.responseTo(body, message.path("id").asLong(), this::parse);
        } else {
            throw new UpstreamException("the upstream answered with content type `" + clip(type)
                    + "`, not application/json or text/event-stream");
        }
        if (answer == null || !"2.0".equals(answer.path("jsonrpc").asText()) || !answer.has("id")
                || answer.path("id").asLong() != message.path("id").asLong()) {
            throw new UpstreamException("the upstream's answer is not a JSON-RPC response to the request");
        }
        return new Answer(answer, sessionHeader);
    }

    /** Whether the exchange relied on a cached session (a call), so a refusal may mean the session expired. */
    private static boolean sessionInUse(ObjectNode message) {
        return "tools/call".equals(message.path("method").asText());
    }

    private JsonNode parse(byte[] bytes) throws UpstreamException {
        try {
            JsonNode node = json.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new UpstreamException("the upstream's answer is not a JSON-RPC message");
            }
            return node;
        } catch (IOException e) {
            throw new UpstreamException("the upstream's answer is not valid JSON");
        }
    }

    private static String key(URI url, Map<String, String> headers) {
        return url + "#" + Integer.toHexString(headers.hashCode());
    }

    static String clip(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    /** A failed exchange; the message is safe to show a caller (no header, no credential). */
    public static class UpstreamException extends Exception {
        public UpstreamException(String message) {
            super(message);
        }
    }

    /** The organization is halted: the call was refused, or cancelled in flight. */
    public static final class Halted extends UpstreamException {
        public Halted(String message) {
            super(message);
        }
    }

    /** The caller's arguments do not fit the tool (a validation problem, not the upstream's failure). */
    public static final class ArgumentException extends UpstreamException {
        public ArgumentException(String message) {
            super(message);
        }
    }

    /** The upstream forgot the session (HTTP 404): open a new one and retry once. */
    private static final class SessionExpired extends UpstreamException {
        SessionExpired() {
            super("the upstream's session expired");
        }
    }
}
