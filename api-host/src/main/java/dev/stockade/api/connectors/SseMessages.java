package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads an upstream's server-sent events (the streamable HTTP answer to a POST) until the JSON-RPC response to the
 * request arrives: notifications and requests the upstream sends first (progress, logging) are skipped.
 */
final class SseMessages {
    /** Parses one event's data. */
    interface Parser {
        JsonNode parse(byte[] data) throws UpstreamException;
    }

    private SseMessages() {
    }

    /** The response with {@code id}, or {@code null} when the stream ends without one. */
    static JsonNode responseTo(InputStream in, long id, Parser parser) throws IOException, UpstreamException {
        SseReader events = new SseReader(in);
        for (SseEvent e = events.next(); e != null; e = events.next()) {
            if (e.data().isEmpty()) {
                continue;
            }
            JsonNode message = parser.parse(e.data().getBytes(StandardCharsets.UTF_8));
            if (message.has("id") && message.path("id").asLong() == id
                    && (message.has("result") || message.has("error"))) {
                return message;
            }
        }
        return null;
    }
}
