package dev.stockade.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The proxy's admin endpoint on loopback only: {@code /halt} (POST halts, DELETE resumes, GET reads),
 * {@code /health} and {@code /metrics} (Prometheus text). The proxy never forwards to it (the self-loop guard).
 */
final class AdminEndpoint {
    private AdminEndpoint() {
    }

    static HttpServer start(int port, Supplier<ProxyServer> proxy) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        s.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "stockade-proxy-admin");
            t.setDaemon(true);
            return t;
        }));
        s.createContext("/halt", ex -> {
            ProxyServer p = proxy.get();
            switch (ex.getRequestMethod()) {
                case "POST" -> p.halt();
                case "DELETE" -> p.resume();
                case "GET" -> { }
                default -> {
                    reply(ex, 405, "method not allowed\n");
                    return;
                }
            }
            reply(ex, 200, "{\"halted\":" + p.halted() + "}\n");
        });
        s.createContext("/health", ex -> reply(ex, 200, "{\"status\":\"up\",\"halted\":" + proxy.get().halted() + "}\n"));
        s.createContext("/metrics", ex -> {
            if (!"GET".equals(ex.getRequestMethod())) {
                reply(ex, 405, "method not allowed\n");
                return;
            }
            byte[] b = proxy.get().metricsText().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        });
        s.start();
        return s;
    }

    private static void reply(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", body.startsWith("{") ? "application/json" : "text/plain");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
