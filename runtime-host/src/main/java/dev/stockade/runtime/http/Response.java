package dev.stockade.runtime.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;

/** One HTTP response: status, content type and body. */
public record Response(int status, String contentType, byte[] body) {
    /** A JSON response of {@code value} (a Jackson node, map, list or record). */
    public static Response json(int status, Object value) {
        try {
            return new Response(status, "application/json", Request.JSON.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unserialisable response", e);
        }
    }

    public static Response text(int status, String text) {
        return new Response(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    public static Response noContent() {
        return new Response(204, null, new byte[0]);
    }
}
