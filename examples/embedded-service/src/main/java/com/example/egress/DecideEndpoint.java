package com.example.egress;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /decide?url=...&method=...&caller=...}: decides the described request with the current program and
 * answers one line, {@code verdict reason policy=... entry=... rule=...}. Bad input gets 400 and one line saying
 * what is wrong, never a stack trace.
 */
final class DecideEndpoint implements HttpHandler {
    private final Supplier<DecisionProgram> current;

    /** Decides with whatever program {@code current} holds at the time of each request. */
    DecideEndpoint(Supplier<DecisionProgram> current) {
        this.current = current;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                answer(exchange, 405, "only GET is served");
                return;
            }
            EgressRequest request;
            try {
                request = requestOf(query(exchange.getRequestURI().getRawQuery()));
            } catch (IllegalArgumentException e) {
                answer(exchange, 400, e.getMessage());
                return;
            }
            // One read of the reference per decision: a swap during this call does not split it across programs.
            Decision d = current.get().decide(request);
            answer(exchange, 200, d.verdict().wire() + " " + d.reason().code() + " policy=" + d.policy()
                    + " entry=" + d.entryIndex() + " rule=" + d.ruleIndex());
        }
    }

    /** The request the parameters describe: {@code url} required, {@code method} default GET, {@code caller}. */
    static EgressRequest requestOf(Map<String, String> params) {
        String url = params.get("url");
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("missing parameter `url`");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("parameter `url` is not a URL");
        }
        String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!"http".equals(scheme) && !"https".equals(scheme) || uri.getHost() == null) {
            throw new IllegalArgumentException("parameter `url` must be an absolute http or https URL");
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String sni = "https".equals(scheme) ? uri.getHost() : null;
        return new EgressRequest(scheme, uri.getHost(), port, sni, params.get("caller"),
                params.getOrDefault("method", "GET").toUpperCase(Locale.ROOT), path, uri.getRawQuery(), Map.of(),
                null, false);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> params = new HashMap<>();
        if (raw == null) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    private static void answer(HttpExchange exchange, int status, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
