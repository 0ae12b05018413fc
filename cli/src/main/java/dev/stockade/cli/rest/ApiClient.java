package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The platform's REST API over the JDK HTTP client: JSON in, JSON out, problem details turned into {@link Refused}.
 * Redirects are not followed, so the token is only ever sent to the URL the user chose.
 */
public final class ApiClient {
    /** Bodies above this are refused rather than buffered: no answer of the API comes near it. */
    static final int MAX_BODY = 16 << 20;
    static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    /** A client for {@code base} sending {@code token} as a bearer token ({@code null}: no Authorization header). */
    public ApiClient(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    public URI base() {
        return base;
    }

    /**
     * Checks a platform URL given by the user: http or https, a host, no query or fragment; the trailing slash is
     * dropped so paths append cleanly.
     */
    public static URI parseUrl(String url) {
        try {
            URI u = new URI(url.trim());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || u.getRawQuery() != null
                    || u.getRawFragment() != null || u.getRawUserInfo() != null) {
                throw Failure.usage(Quoted.input(url, Text::safe) + " is not a platform URL such as http://127.0.0.1:8080");
            }
            String s = u.toString();
            while (s.endsWith("/")) {
                s = s.substring(0, s.length() - 1);
            }
            return URI.create(s);
        } catch (URISyntaxException e) {
            throw Failure.usage(Quoted.input(url, Text::safe) + " is not a URL: " + e.getReason());
        }
    }

    /** One path segment, percent-encoded so that an id cannot change the path ({@code ..}, {@code /}, {@code ?}). */
    public static String seg(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    /** A query string ({@code ?a=1&b=2}, empty for no parameters), each value percent-encoded. */
    public static String query(java.util.Map<String, String> parameters) {
        java.util.StringJoiner s = new java.util.StringJoiner("&", "?", "").setEmptyValue("");
        parameters.forEach((k, v) -> s.add(k + "=" + java.net.URLEncoder.encode(v, StandardCharsets.UTF_8)
                .replace("+", "%20")));
        return s.toString();
    }

    public JsonNode get(String path) {
        return send("GET", path, null);
    }

    public JsonNode post(String path, Object body) {
        return send("POST", path, body);
    }

    public JsonNode put(String path, Object body) {
        return send("PUT", path, body);
    }

    public JsonNode patch(String path, Object body) {
        return send("PATCH", path, body);
    }

    public JsonNode delete(String path) {
        return send("DELETE", path, null);
    }

    /**
     * Opens a WebSocket to {@code path} (same origin, {@code ws}/{@code wss} for {@code http}/{@code https}) with the
     * bearer token; a refused handshake is a usage failure naming the status.
     */
    public java.net.http.WebSocket webSocket(String path, java.net.http.WebSocket.Listener listener) {
        URI uri = URI.create(base.toString().replaceFirst("^http", "ws") + path);
        java.net.http.WebSocket.Builder b = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        try {
            return b.buildAsync(uri, listener).get(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            String why = String.valueOf(e.getCause() == null ? e : e.getCause().getCause() != null
                    ? e.getCause().getCause().getMessage() : e.getCause().getMessage());
            throw Failure.usage("the platform refused the exec: " + Text.safe(why));
        } catch (java.util.concurrent.TimeoutException e) {
            throw Failure.usage("the platform at " + Text.shown(base) + " did not open the exec within 60 seconds");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failure.usage("interrupted");
        }
    }

    /** Sends a document as written (a policy file in YAML or JSON), so that the platform reports its lines. */
    public JsonNode sendText(String method, String path, String contentType, String text) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60)).header("Accept", "application/json, application/problem+json")
                .header("User-Agent", "stockade-cli").header("Content-Type", contentType)
                .method(method, HttpRequest.BodyPublishers.ofString(text));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<InputStream> response = exchange(request.build());
        return answer(method, path, response.statusCode(), read(response));
    }

    /** A JSON-RPC exchange with the MCP endpoint: the answer and the session header it carried (null when none). */
    public record Rpc(JsonNode body, String session) {
    }

    /** POSTs one JSON-RPC message to an MCP endpoint at {@code path}, with the session header when given. */
    public Rpc rpc(String path, String session, Object message) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60)).header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json").header("User-Agent", "stockade-cli")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json(message)));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        HttpResponse<InputStream> response = exchange(request.build());
        String body = read(response);
        if (response.statusCode() >= 400 && body.contains("\"jsonrpc\"")) {
            try {
                throw Failure.usage("the MCP endpoint refused: " + Text.safe(JSON.readTree(body).path("error")
                        .path("message").asText()));
            } catch (JsonProcessingException e) {
                throw Failure.unexpected("the MCP endpoint answered HTTP " + response.statusCode());
            }
        }
        JsonNode node = response.statusCode() == 202 ? MissingNode.getInstance()
                : answer("POST", path, response.statusCode(), body);
        return new Rpc(node, response.headers().firstValue("mcp-session-id").orElse(null));
    }

    /** Ends an MCP session (best effort: a session also expires on its own). */
    public void deleteSession(String path, String session) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .header("Mcp-Session-Id", session).header("User-Agent", "stockade-cli").DELETE();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        read(exchange(request.build()));
    }

    /** Sends a request; the answer's JSON, {@link MissingNode} for an empty body (204). */
    JsonNode send(String method, String path, Object body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60)).header("Accept", "application/json, application/problem+json")
                .header("User-Agent", "stockade-cli");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
            request.method(method, HttpRequest.BodyPublishers.ofByteArray(json(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<InputStream> response = exchange(request.build());
        return answer(method, path, response.statusCode(), read(response));
    }

    private static byte[] json(Object body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("request body not serializable", e);
        }
    }

    private HttpResponse<InputStream> exchange(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw Failure.usage("cannot reach the platform at " + Text.shown(base) + " (" + reason(e, "connection refused") + ")");
        } catch (HttpTimeoutException e) {
            throw Failure.usage("the platform at " + Text.shown(base) + " did not answer within 60 seconds");
        } catch (IOException e) {
            throw Failure.usage("cannot reach the platform at " + Text.shown(base) + " (" + reason(e, "I/O error") + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failure.usage("interrupted");
        }
    }

    private static String reason(IOException e, String fallback) {
        return e.getMessage() == null || e.getMessage().isBlank() ? fallback : Text.safe(e.getMessage());
    }

    private String read(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw Failure.unexpected("the answer from " + Text.shown(base) + " is larger than " + (MAX_BODY >> 20) + " MiB");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw Failure.usage("the connection to " + Text.shown(base) + " broke while reading the answer");
        }
    }

    private JsonNode answer(String method, String path, int status, String body) {
        JsonNode node;
        try {
            node = body.isEmpty() ? MissingNode.getInstance() : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            node = null;
        }
        if (status >= 200 && status < 300 && node != null) {
            return node;
        }
        if (status >= 400 && node != null && node.isObject() && node.has("status")) {
            throw new Refused(status, node);
        }
        throw Failure.unexpected(method + " " + Text.shown(base + path) + " answered HTTP " + status
                + (node == null ? " with a body that is not JSON" : " without problem details")
                + "; is this the Stockade platform?");
    }
}
