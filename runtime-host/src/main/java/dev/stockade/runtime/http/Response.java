package dev.stockade.runtime.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One HTTP response: status, content type, extra headers (a page's Content-Security-Policy, a redirect's
 * Location) and either a whole body or, for server-sent events, a {@link Stream} that writes events while
 * the handler's worker runs it.
 */
public record Response(int status, String contentType, byte[] body, Stream stream, Map<String, String> headers) {
    public Response(int status, String contentType, byte[] body) {
        this(status, contentType, body, null, Map.of());
    }

    public Response(int status, String contentType, byte[] body, Stream stream) {
        this(status, contentType, body, stream, Map.of());
    }

    /** This response with {@code extra} headers added (replacing any of the same name). */
    public Response withHeaders(Map<String, String> extra) {
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.putAll(extra);
        return new Response(status, contentType, body, stream, Map.copyOf(all));
    }

    /** A JSON response of {@code value} (a Jackson node, map, list or record). */
    public static Response json(int status, Object value) {
        return new Response(status, "application/json", bytes(value));
    }

    public static Response text(int status, String text) {
        return new Response(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    public static Response noContent() {
        return new Response(204, null, new byte[0]);
    }

    /** A {@code 200 text/event-stream} answer whose events {@code stream} writes; the stream ends when it returns. */
    public static Response events(Stream stream) {
        return new Response(200, "text/event-stream", new byte[0], stream);
    }

    static byte[] bytes(Object value) {
        try {
            return Request.JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unserialisable response", e);
        }
    }

    /** Writes the events of a streamed answer. */
    @FunctionalInterface
    public interface Stream {
        void write(Events events) throws Exception;
    }

    /** Where a {@link Stream} writes: one server-sent event per call, flushed at once. */
    public interface Events {
        /** Sends {@code event: name} with {@code data} serialised as one line of JSON. */
        void send(String name, Object data);

        /** Sends {@code event: name} with an {@code id:} (a client resumes after it with Last-Event-ID). */
        void send(String name, String id, Object data);

        /** Sends a comment line: keeps idle proxies from closing the stream and detects a client gone. */
        void keepAlive();

        /** Whether the client is still connected. */
        boolean open();
    }
}
