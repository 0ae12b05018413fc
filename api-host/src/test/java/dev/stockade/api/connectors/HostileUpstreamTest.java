package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Upstreams that misbehave produce clear tool errors, never a hung call or a crash: one that never answers, one that
 * answers 100 MB, invalid JSON, a JSON body that is not JSON-RPC, the wrong content type, a redirect to loopback. A
 * halt cancels a call in flight. The upstream is a small real HTTP server that behaves well for discovery and badly
 * for the call (or for {@code initialize}, for registration).
 */
@MicronautTest(transactional = false)
class HostileUpstreamTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> MODES = List.of("silent", "huge", "garbage", "notrpc", "html", "redirect");

    /** A permit per call the silent upstream has received (and will never answer). */
    private final Semaphore silentCalls = new Semaphore(0);
    private final HttpServer upstream = hostile();

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("connectors.allow-loopback-unsafe", "true", "connectors.call-timeout", "3s",
                "connectors.max-response-bytes", "1048576");
    }

    @AfterAll
    void stop() {
        upstream.stop(0);
    }

    private record World(String org, String project, String token) {
    }

    private World world() {
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

    private JsonNode call(World w, String tool) {
        Http.Response r = http.post("/v1/projects/" + w.project() + "/mcp-servers/tools/call", w.token(),
                Map.of("name", tool, "arguments", Map.of()));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    @Test
    void everyMisbehaviourIsAClearToolErrorWithinTheBound() {
        World w = world();
        Map<String, String> expected = Map.of(
                "silent", "did not answer within 3 s",
                "huge", "over 1048576 bytes",
                "garbage", "not valid JSON",
                "notrpc", "not a JSON-RPC response",
                "html", "content type `text/html`",
                "redirect", "redirected (302)");
        for (String mode : MODES) {
            long start = System.nanoTime();
            JsonNode r = call(w, mode + "__t");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(r.path("isError").asBoolean()).as(mode + ": " + r).isTrue();
            assertThat(r.path("structuredContent").path("code").asText()).as(mode).isEqualTo("upstream_failed");
            assertThat(r.path("content").get(0).path("text").asText()).as(mode).contains(expected.get(mode));
            // the 3 s bound with room for a loaded machine, still well short of the silent upstream's 30 s
            assertThat(millis).as(mode + " took %d ms", millis).isLessThan(15_000);
        }
        JsonNode trail = http.get("/v1/orgs/" + w.org() + "/audit-trail?kind=tool-call&outcome=error", ownerToken())
                .body().path("items");
        assertThat(trail).hasSize(MODES.size());
    }

    @Test
    void anUpstreamThatNeverAnswersInitializeIsRegisteredWithItsError() {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "init-" + System.nanoTime()), "p");
        Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "mute", "url", base() + "/mcp/silent-init"));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        assertThat(c.body().path("status").asText()).isEqualTo("error");
        assertThat(c.body().path("lastError").asText()).contains("did not answer within 3 s");
        assertThat(c.body().path("tools")).isEmpty();
        Http.Response test = http.post("/v1/projects/" + project + "/mcp-servers/test-connection", owner,
                Map.of("url", base() + "/mcp/garbage"));
        assertThat(test.body().path("ok").asBoolean()).as(test.raw()).isTrue();
        Http.Response bad = http.post("/v1/projects/" + project + "/mcp-servers/test-connection", owner,
                Map.of("url", "file:///etc/passwd"));
        assertThat(problem(bad, 400)).isEqualTo("validation_failed");
    }

    @Test
    void aHaltCancelsACallInFlightAndRefusesTheNext() throws Exception {
        World w = world();
        silentCalls.drainPermits();
        CompletableFuture<JsonNode> inFlight = CompletableFuture.supplyAsync(() -> call(w, "silent__t"));
        // halt once the call waits on the silent upstream (a halt before it arrives would refuse it instead)
        assertThat(silentCalls.tryAcquire(60, TimeUnit.SECONDS)).as("the call reached the upstream").isTrue();
        assertThat(http.post("/v1/orgs/" + w.org() + "/halt", ownerToken(), null).status()).isEqualTo(200);
        JsonNode cancelled = inFlight.get(60, TimeUnit.SECONDS);
        assertThat(cancelled.path("isError").asBoolean()).isTrue();
        assertThat(cancelled.path("structuredContent").path("code").asText()).isEqualTo("halted");
        // while halted the organization's connector tools are not listed, so a call is refused like an unknown tool
        Http.Response next = http.post("/v1/projects/" + w.project() + "/mcp-servers/tools/call", w.token(),
                Map.of("name", "garbage__t", "arguments", Map.of()));
        assertThat(problem(next, 404)).isEqualTo("not_found");
        JsonNode trail = http.get("/v1/orgs/" + w.org() + "/audit-trail?kind=tool-call&outcome=cancelled",
                ownerToken()).body().path("items");
        assertThat(trail).hasSize(1);
    }

    private String base() {
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
                    Thread.sleep(30_000); // never answers within the platform's bound
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
