package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
        BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        StringBuilder data = new StringBuilder();
        for (String line = lines.readLine(); ; line = lines.readLine()) {
            if (line == null || line.isEmpty()) {
                if (data.length() > 0) {
                    JsonNode message = parser.parse(data.toString().getBytes(StandardCharsets.UTF_8));
                    data.setLength(0);
                    if (message.has("id") && message.path("id").asLong() == id
                            && (message.has("result") || message.has("error"))) {
                        return message;
                    }
                }
                if (line == null) {
                    return null;
                }
            } else if (line.startsWith("data:")) {
                if (data.length() > 0) {
                    data.append('\n');
                }
                data.append(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
            }
        }
    }
}
