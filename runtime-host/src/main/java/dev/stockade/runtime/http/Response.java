package dev.stockade.runtime.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP response: status, content type and either a whole body or, for server-sent events, a
 * {@link Stream} that writes events while the handler's worker runs it.
 */
public record Response(int status, String contentType, byte[] body, Stream stream) {
    public Response(int status, String contentType, byte[] body) {
        this(status, contentType, body, null);
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

        /** Whether the client is still connected. */
        boolean open();
    }
}
