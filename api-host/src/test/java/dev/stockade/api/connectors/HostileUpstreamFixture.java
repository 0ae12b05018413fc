package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterAll;

/**
 * A platform and a small real HTTP server as the upstream of six connectors, each misbehaving its own way on a tool
 * call (never answering, 100 MB, invalid JSON, JSON that is not JSON-RPC, the wrong content type, a redirect to
 * loopback) while it behaves for discovery; {@code silent-init} never answers {@code initialize}.
 */
abstract class HostileUpstreamFixture extends PlatformTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> MODES = List.of("silent", "huge", "garbage", "notrpc", "html", "redirect");

    /** A permit per call the silent upstream has received (and will never answer). */
    final Semaphore silentCalls = new Semaphore(0);
    /** Held by every silent answer: it never comes while the class runs, only when the upstream stops. */
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final HttpServer upstream = hostile();

    @AfterAll
    void stop() {
        stopping.countDown();
        upstream.stop(0);
    }

    record World(String org, String project, String token) {
    }

    World world() {
        String owner = ownerToken();
        String org = createOrg(owner, "hostile-" + System.nanoTime());
        String project = createProject(owner, org, "p");
        List<Map<String, Object>> grants = new java.util.ArrayList<>();
        for (String mode : MODES) {
            Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                    Map.of("name", mode, "url", base() + "/mcp/" + mode));
            assertThat(c.body().path("status").asText()).as(c.raw()).isEqualTo("ready");
            grants.add(Map.of("connectorId", c.text("id"), "allowedTools", List.of("t")));
        }
        String policy = http.post("/v1/projects/" + project + "/policies", owner,
                Map.of("name", "all", "connectors", grants)).text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", t.text("id")));
        return new World(org, project, t.text("token"));
    }

    JsonNode call(World w, String tool) {
        Http.Response r = http.post("/v1/projects/" + w.project() + "/mcp-servers/tools/call", w.token(),
                Map.of("name", tool, "arguments", Map.of()));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    String base() {
        return "http://127.0.0.1:" + upstream.getAddress().getPort();
    }

    private HttpServer hostile() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            s.setExecutor(Executors.newCachedThreadPool());
            s.createContext("/mcp/", this::serve);
            s.start();
            return s;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void serve(HttpExchange ex) throws IOException {
        String mode = ex.getRequestURI().getPath().substring("/mcp/".length());
        JsonNode msg = JSON.readTree(ex.getRequestBody());
        String method = msg.path("method").asText();
        long id = msg.path("id").asLong();
        try (ex) {
            if (method.equals("initialize") && !mode.equals("silent-init")) {
                ex.getResponseHeaders().add("Mcp-Session-Id", "s-" + mode);
                json(ex, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"hostile\",\"version\":\"1\"}}}");
            } else if (method.startsWith("notifications/")) {
                ex.sendResponseHeaders(202, -1);
            } else if (method.equals("tools/list")) {
                json(ex, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"tools\":[{\"name\":\"t\","
                        + "\"inputSchema\":{\"type\":\"object\"}}]}}");
            } else {
                misbehave(ex, mode);
            }
        }
    }

    private void misbehave(HttpExchange ex, String mode) throws IOException {
        switch (mode) {
            case "silent", "silent-init" -> {
                silentCalls.release();
                try {
                    stopping.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            case "huge" -> {
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(200, 0);
                byte[] chunk = " ".repeat(1 << 16).getBytes(StandardCharsets.US_ASCII);
                try (OutputStream out = ex.getResponseBody()) {
                    for (int i = 0; i < 1600; i++) { // 100 MB unless the reader stops first
                        out.write(chunk);
                    }
                } catch (IOException stopped) {
                    // the platform stopped reading at its bound and closed the connection
                }
            }
            case "garbage" -> json(ex, "{not json at all");
            case "notrpc" -> json(ex, "{\"hello\":\"world\"}");
            case "html" -> {
                byte[] body = "<html>oops</html>".getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "text/html");
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            }
            case "redirect" -> {
                ex.getResponseHeaders().add("Location", "http://127.0.0.1:" + server.getPort() + "/v1/installation");
                ex.sendResponseHeaders(302, -1);
            }
            default -> ex.sendResponseHeaders(500, -1);
        }
    }

    private static void json(HttpExchange ex, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, bytes.length);
        ex.getResponseBody().write(bytes);
    }
}
