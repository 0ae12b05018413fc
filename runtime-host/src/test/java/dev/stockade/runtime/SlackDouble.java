package dev.stockade.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.testing.LoopbackWebSocketServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.java_websocket.WebSocket;
import org.java_websocket.handshake.ClientHandshake;

/**
 * A stand-in for Slack (a service outside this machine) speaking its real wire formats on loopback: the Web API
 * methods the adapter calls ({@code auth.test}, {@code apps.connections.open}, {@code chat.postMessage},
 * {@code conversations.replies}) as form posts with a bearer token answering Slack's JSON and error shapes, and a
 * Socket Mode WebSocket that greets with {@code hello}, sends {@code events_api} envelopes, records their
 * acknowledgements and can ask the client to reconnect with {@code disconnect}.
 */
final class SlackDouble implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String BOT_TOKEN = "xoxb-1111-2222-double-bot-secret";
    static final String APP_TOKEN = "xapp-1-A0APP-3333-double-app-secret";
    static final String APP_ID = "A0APP";
    static final String BOT_USER = "U0BOT";

    /** A message as chat.postMessage received it; {@code threadTs} null for a top-level post. */
    record Post(String channel, String threadTs, String text) {
    }

    /** A stored message of a channel: what conversations.replies returns. */
    private record Stored(String channel, String ts, String threadTs, String user, String botId, String text) {
    }

    private final HttpServer http;
    private final Link socket;
    private final List<Post> posts = new CopyOnWriteArrayList<>();
    private final List<Stored> history = new CopyOnWriteArrayList<>();
    private final List<String> methods = new CopyOnWriteArrayList<>();
    private final List<String> sentEnvelopes = new CopyOnWriteArrayList<>();
    private final List<String> acks = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicLong clock = new AtomicLong(1_700_000_000L);
    private volatile int opened;

    SlackDouble() throws Exception {
        socket = new Link();
        socket.listen();
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/api/", this::handle);
        http.start();
    }

    /** The Web API base, as SLACK_API_URL. */
    String apiUrl() {
        return "http://127.0.0.1:" + http.getAddress().getPort() + "/api/";
    }

    /** Every Web API method called, in order. */
    List<String> methods() {
        return List.copyOf(methods);
    }

    List<Post> posts() {
        return List.copyOf(posts);
    }

    /** Envelope ids sent, and those the client acknowledged with {@code {"envelope_id":...}}. */
    List<String> sentEnvelopes() {
        return List.copyOf(sentEnvelopes);
    }

    List<String> acks() {
        return List.copyOf(acks);
    }

    /** How many Socket Mode connections the client opened so far. */
    int connectionsOpened() {
        return opened;
    }

    /** Socket Mode connections open now. */
    int connectionsOpen() {
        return socket.getConnections().size();
    }

    /** Another person's message in a thread, which the agent did not hear as an event. */
    String said(String channel, String threadTs, String user, String text) {
        String ts = nextTs();
        history.add(new Stored(channel, ts, threadTs == null ? ts : threadTs, user, null, text));
        return ts;
    }

    /** A person writes in the bot's direct message {@code channel}: stored, then sent as a message event. */
    String directMessage(String channel, String user, String text) {
        String ts = said(channel, null, user, text);
        ObjectNode e = JSON.createObjectNode().put("type", "message").put("channel", channel).put("user", user)
                .put("text", text).put("ts", ts).put("event_ts", ts).put("channel_type", "im").put("team", "T0TEAM")
                .put("client_msg_id", UUID.randomUUID().toString());
        send(e);
        return ts;
    }

    /**
     * A person mentions the bot in a channel: Slack sends both the channel's message event and app_mention, as it does
     * for an app subscribed to message.channels and app_mention.
     */
    String mention(String channel, String threadTs, String user, String text) {
        String ts = said(channel, threadTs, user, text);
        ObjectNode m = JSON.createObjectNode().put("type", "message").put("channel", channel).put("user", user)
                .put("text", text).put("ts", ts).put("event_ts", ts).put("channel_type", "channel");
        ObjectNode a = JSON.createObjectNode().put("type", "app_mention").put("channel", channel).put("user", user)
                .put("text", text).put("ts", ts).put("event_ts", ts);
        if (threadTs != null) {
            m.put("thread_ts", threadTs);
            a.put("thread_ts", threadTs);
        }
        send(m);
        send(a);
        return ts;
    }

    /** Sends {@code event} in an events_api envelope on every open connection; returns the envelope id. */
    String send(ObjectNode event) {
        String id = UUID.randomUUID().toString();
        ObjectNode payload = JSON.createObjectNode().put("token", "verification-unused").put("team_id", "T0TEAM")
                .put("api_app_id", APP_ID).put("type", "event_callback").put("event_id", "Ev" + id.substring(0, 8))
                .put("event_time", clock.get());
        payload.set("event", event);
        payload.putArray("authorizations").addObject().put("team_id", "T0TEAM").put("user_id", BOT_USER)
                .put("is_bot", true);
        ObjectNode envelope = JSON.createObjectNode().put("envelope_id", id).put("type", "events_api")
                .put("accepts_response_payload", false).put("retry_attempt", 0).put("retry_reason", "");
        envelope.set("payload", payload);
        sentEnvelopes.add(id);
        socket.getConnections().forEach(c -> c.send(envelope.toString()));
        return id;
    }

    /** Asks the client to reconnect, as Slack does before it recycles a connection. */
    void disconnect(String reason) {
        String frame = JSON.createObjectNode().put("type", "disconnect").put("reason", reason)
                .set("debug_info", JSON.createObjectNode().put("host", "applink-double")).toString();
        socket.getConnections().forEach(c -> c.send(frame));
    }

    private void handle(HttpExchange ex) throws IOException {
        String method = ex.getRequestURI().getPath().substring("/api/".length());
        methods.add(method);
        Map<String, String> form = form(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        String token = auth != null && auth.startsWith("Bearer ") ? auth.substring(7) : form.get("token");
        authorizations.add(String.valueOf(token));
        ObjectNode out = switch (method) {
            case "auth.test" -> authTest(token);
            case "apps.connections.open" -> connectionsOpen(token);
            case "chat.postMessage" -> BOT_TOKEN.equals(token) ? postMessage(form) : error("invalid_auth");
            case "conversations.replies" -> BOT_TOKEN.equals(token) ? replies(form) : error("invalid_auth");
            default -> error("unknown_method");
        };
        byte[] body = out.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(body);
        }
    }

    private ObjectNode authTest(String token) {
        if (BOT_TOKEN.equals(token)) {
            return ok().put("url", "https://double.slack.com/").put("team", "Double").put("user", "stockade")
                    .put("team_id", "T0TEAM").put("user_id", BOT_USER).put("bot_id", "B0BOT").put("app_id", APP_ID)
                    .put("app_name", "Stockade").put("is_enterprise_install", false);
        }
        return error(APP_TOKEN.equals(token) ? "not_allowed_token_type" : "invalid_auth");
    }

    private ObjectNode connectionsOpen(String token) {
        if (APP_TOKEN.equals(token)) {
            return ok().put("url", "ws://127.0.0.1:" + socket.getPort() + "/link/?ticket=" + UUID.randomUUID());
        }
        return error(BOT_TOKEN.equals(token) ? "not_allowed_token_type" : "invalid_auth");
    }

    private ObjectNode postMessage(Map<String, String> form) {
        String channel = form.get("channel");
        if (channel == null || channel.isBlank()) {
            return error("channel_not_found");
        }
        String ts = nextTs();
        String thread = form.get("thread_ts");
        posts.add(new Post(channel, thread, form.get("text")));
        history.add(new Stored(channel, ts, thread == null ? ts : thread, BOT_USER, "B0BOT", form.get("text")));
        ObjectNode r = ok().put("channel", channel).put("ts", ts);
        r.putObject("message").put("type", "message").put("user", BOT_USER).put("bot_id", "B0BOT")
                .put("text", form.get("text")).put("ts", ts);
        return r;
    }

    private ObjectNode replies(Map<String, String> form) {
        String channel = form.get("channel");
        String root = form.get("ts");
        ArrayNode messages = JSON.createArrayNode();
        for (Stored s : history) {
            if (s.channel().equals(channel) && s.threadTs().equals(root)) {
                ObjectNode m = messages.addObject().put("type", "message").put("ts", s.ts()).put("text", s.text())
                        .put("thread_ts", root);
                m.put("user", s.user());
                if (s.botId() != null) {
                    m.put("bot_id", s.botId());
                }
            }
        }
        if (messages.isEmpty()) {
            return error("thread_not_found");
        }
        ObjectNode r = ok().put("has_more", false);
        r.set("messages", messages);
        return r;
    }

    private String nextTs() {
        return clock.incrementAndGet() + ".000100";
    }

    private static ObjectNode ok() {
        return JSON.createObjectNode().put("ok", true);
    }

    private static ObjectNode error(String code) {
        return JSON.createObjectNode().put("ok", false).put("error", code);
    }

    private static Map<String, String> form(String body) {
        Map<String, String> m = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                m.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return m;
    }

    /** The Socket Mode endpoint: hello on open, acknowledgements recorded by envelope id. */
    private final class Link extends LoopbackWebSocketServer {
        @Override
        public void onOpen(WebSocket conn, ClientHandshake handshake) {
            opened++;
            conn.send(JSON.createObjectNode().put("type", "hello").put("num_connections", getConnections().size())
                    .<ObjectNode>set("debug_info", JSON.createObjectNode().put("host", "applink-double")
                            .put("approximate_connection_time", 18060))
                    .set("connection_info", JSON.createObjectNode().put("app_id", APP_ID)).toString());
        }

        @Override
        public void onMessage(WebSocket conn, String message) {
            try {
                JsonNode n = JSON.readTree(message);
                if (n.hasNonNull("envelope_id")) {
                    acks.add(n.get("envelope_id").asText());
                }
            } catch (IOException e) {
                acks.add("unreadable: " + message);
            }
        }

        @Override
        public void onClose(WebSocket conn, int code, String reason, boolean remote) {
            // a client that reconnects opens anew; the tests count openings
        }
    }

    @Override
    public void close() throws Exception {
        http.stop(0);
        socket.stop(1000);
    }

    /** Every token presented, so a test can tell the bot token went only where it belongs. */
    List<String> tokensSeen() {
        return new ArrayList<>(authorizations);
    }
}
