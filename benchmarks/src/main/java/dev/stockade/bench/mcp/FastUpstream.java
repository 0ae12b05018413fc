package dev.stockade.bench.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.bench.sandbox.BenchPlatform;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The upstream MCP server {@link McpBench} measures against, in the benchmark's JVM: JSON answers and no work per
 * call, so what the benchmark times beyond it is the platform's.
 */
final class FastUpstream {
    private FastUpstream() {
    }

    /** Starts the upstream: every path /mcp/N lists t0..t{toolCount-1} and answers every call with the text `ok`. */
    static HttpServer start(int toolCount) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        s.setExecutor(Executors.newFixedThreadPool(8, McpSession::daemon));
        StringBuilder tools = new StringBuilder();
        for (int t = 0; t < toolCount; t++) {
            tools.append(t == 0 ? "" : ",").append("{\"name\":\"t").append(t).append("\",\"description\":\"tool ")
                    .append(t).append("\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"message\":"
                            + "{\"type\":\"string\"}}}}");
        }
        String list = tools.toString();
        s.createContext("/mcp/", ex -> answer(ex, list));
        s.start();
        return s;
    }

    private static void answer(HttpExchange ex, String tools) throws IOException {
        JsonNode msg = BenchPlatform.JSON.readTree(ex.getRequestBody());
        String method = msg.path("method").asText();
        String id = msg.path("id").toString();
        String body = switch (method) {
            case "initialize" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"fast\",\"version\":"
                    + "\"1\"}}}";
            case "tools/list" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"tools\":[" + tools + "]}}";
            case "tools/call" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\","
                    + "\"text\":\"ok\"}]}}";
            default -> null;
        };
        try (ex) {
            if (body == null) {
                ex.sendResponseHeaders(202, -1);
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            if (method.equals("initialize")) {
                ex.getResponseHeaders().add("Mcp-Session-Id", "fast");
            }
            ex.sendResponseHeaders(200, bytes.length);
            ex.getResponseBody().write(bytes);
        }
    }
}
