package dev.stockade.api.replicas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An MCP client session over streamable HTTP on one platform replica, as a client speaks it: {@code initialize} and
 * {@code notifications/initialized} by POST, then the server's stream ({@code GET} with the session id) kept open and
 * read, counting the {@code notifications/tools/list_changed} that arrive on it.
 */
final class McpSession implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION = "2025-06-18";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI endpoint;
    private final String token;
    private final String session;
    private final AtomicInteger listChanged = new AtomicInteger();
    private final Thread reader;
    private volatile InputStream stream;
    private volatile boolean streamOpen;

    McpSession(URI endpoint, String token) throws Exception {
        this.endpoint = endpoint;
        this.token = token;
        HttpResponse<String> init = post(null, Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize", "params",
                Map.of("protocolVersion", VERSION, "capabilities", Map.of(), "clientInfo",
                        Map.of("name", "replica-failover-test", "version", "1"))));
        this.session = init.headers().firstValue("mcp-session-id").orElseThrow(() ->
                new AssertionError("no MCP session: " + init.statusCode() + " " + init.body()));
        HttpResponse<String> ready = post(session, Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
        if (ready.statusCode() != 202) {
            throw new AssertionError("notifications/initialized answered " + ready.statusCode() + " " + ready.body());
        }
        HttpResponse<InputStream> opened = client.send(HttpRequest.newBuilder(endpoint)
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", VERSION).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (opened.statusCode() != 200) {
            throw new AssertionError("the notification stream answered " + opened.statusCode() + " "
                    + new String(opened.body().readAllBytes()));
        }
        stream = opened.body();
        streamOpen = true;
        reader = new Thread(this::read, "mcp-notifications");
        reader.setDaemon(true);
        reader.start();
    }

    /** How many {@code notifications/tools/list_changed} the stream carried so far. */
    int listChanged() {
        return listChanged.get();
    }

    /** Whether the server's stream is still open. */
    boolean streamOpen() {
        return streamOpen;
    }

    /** The names {@code tools/list} answers in this session now. */
    List<String> toolNames() throws Exception {
        HttpResponse<String> r = post(session, Map.of("jsonrpc", "2.0", "id", 2, "method", "tools/list",
                "params", Map.of()));
        List<String> names = new ArrayList<>();
        JSON.readTree(r.body()).path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private void read() {
        try (SseReader in = new SseReader(stream)) {
            for (SseEvent e = in.next(); e != null; e = in.next()) {
                JsonNode n = e.data().isBlank() ? null : JSON.readTree(e.data());
                if (n != null && "notifications/tools/list_changed".equals(n.path("method").asText())) {
                    listChanged.incrementAndGet();
                }
            }
        } catch (IOException ended) {
            // the stream ended: streamOpen says so
        } finally {
            streamOpen = false;
        }
    }

    private HttpResponse<String> post(String sessionId, Object message) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message)));
        if (sessionId != null) {
            b.header("Mcp-Session-Id", sessionId).header("MCP-Protocol-Version", VERSION);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws IOException {
        InputStream s = stream;
        if (s != null) {
            s.close();
        }
    }
}
