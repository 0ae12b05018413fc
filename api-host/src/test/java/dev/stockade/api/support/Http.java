package dev.stockade.api.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A real HTTP client (the JDK's) against a running platform, with JSON bodies. */
public final class Http {
    /** A response: status, content type and the body as JSON (a text node when it is not JSON). */
    public record Response(int status, String contentType, JsonNode body, String raw) {
        public String text(String field) {
            return body.path(field).asText();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    public Http(URI base) {
        this.base = base;
    }

    public URI base() {
        return base;
    }

    public Response get(String path, String token) {
        return send("GET", path, token, null, null);
    }

    public Response delete(String path, String token) {
        return send("DELETE", path, token, null, null);
    }

    public Response post(String path, String token, Object body) {
        return send("POST", path, token, "application/json", body);
    }

    public Response put(String path, String token, Object body) {
        return send("PUT", path, token, "application/json", body);
    }

    public Response patch(String path, String token, Object body) {
        return send("PATCH", path, token, "application/json", body);
    }

    /** Sends raw bytes with the given content type (bad input tests). */
    public Response send(String method, String path, String token, String contentType, Object body) {
        try {
            byte[] bytes = body == null ? new byte[0] : body instanceof byte[] b ? b
                    : body instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : JSON.writeValueAsBytes(body);
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(bytes));
            if (contentType != null && body != null) {
                b.header("Content-Type", contentType);
            }
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            String ct = r.headers().firstValue("Content-Type").orElse("");
            JsonNode node;
            try {
                node = r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body());
            } catch (IOException notJson) {
                node = JSON.getNodeFactory().textNode(r.body());
            }
            return new Response(r.statusCode(), ct, node, r.body());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The status of a GET whose body is a stream that does not end (the proxy feed); the stream is closed unread. */
    /** Waits (bounded) until the sandbox at {@code path} is in {@code state}; its last answer. */
    public JsonNode awaitState(String path, String token, String state) {
        JsonNode[] last = {null};
        Await.until("sandbox " + path + " to be " + state, Await.LONG, () -> {
            last[0] = get(path, token).body();
            return last[0].path("state").asText().equals(state);
        });
        return last[0];
    }

    public int streamStatus(String path, String token) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET();
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            HttpResponse<java.io.InputStream> r = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            r.body().close();
            return r.statusCode();
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
