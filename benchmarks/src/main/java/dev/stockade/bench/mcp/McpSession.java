package dev.stockade.bench.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.bench.sandbox.BenchPlatform;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.Executors;

/**
 * An MCP client session over plain HTTP as {@link McpBench} keeps one: initialize, then JSON-RPC requests with the
 * session header, over one shared HTTP/1.1 client (kept-alive connections, as an MCP client holds them).
 */
final class McpSession {
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(16, McpSession::daemon)).build();

    final String endpoint;
    final String bearer;
    final String id;
    private long next = 1;

    McpSession(String endpoint, String bearer, String id) {
        this.endpoint = endpoint;
        this.bearer = bearer;
        this.id = id;
    }

    /** Daemon threads, so a run that fails still ends its JVM (and frees the benchmark lock it holds). */
    static Thread daemon(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        return t;
    }

    static McpSession open(String endpoint, String bearer) throws Exception {
        HttpResponse<String> r = HTTP.send(post(endpoint, bearer, null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":"
                + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofString());
        String id = r.headers().firstValue("mcp-session-id").orElseThrow(() ->
                new IllegalStateException("no session: " + r.statusCode() + " " + r.body()));
        HTTP.send(post(endpoint, bearer, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                HttpResponse.BodyHandlers.discarding());
        return new McpSession(endpoint, bearer, id);
    }

    /** The answer's bytes, unparsed (the client's JSON parsing is not the platform's time). */
    byte[] raw(String method, String params) throws Exception {
        return HTTP.send(post(endpoint, bearer, id, body(method, params)), HttpResponse.BodyHandlers.ofByteArray())
                .body();
    }

    JsonNode call(String method, String params) throws Exception {
        HttpResponse<String> r = HTTP.send(post(endpoint, bearer, id, body(method, params)),
                HttpResponse.BodyHandlers.ofString());
        return BenchPlatform.JSON.readTree(r.body());
    }

    private String body(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + next++ + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    static HttpRequest.Builder get(String endpoint, String bearer, String session) {
        return HttpRequest.newBuilder(URI.create(endpoint)).header("Authorization", "Bearer " + bearer)
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", session).GET();
    }

    private static HttpRequest post(String endpoint, String bearer, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }
}
