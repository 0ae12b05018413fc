package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.pii.MaskingException;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.WireFormat;
import io.micronaut.core.annotation.Nullable;
import java.io.IOException;

/**
 * The JSON of one streamed event, as the restoring stages read and write it: an event that is not a JSON object is
 * not theirs to change, so reading it gives null and the event passes as the backend wrote it.
 */
final class EventJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EventJson() {
    }

    /** The event's object, or null when it is not a JSON object. */
    static @Nullable ObjectNode parse(byte[] data) {
        try {
            return JSON.readTree(data) instanceof ObjectNode o ? o : null;
        } catch (IOException notJson) {
            return null;
        }
    }

    static @Nullable ObjectNode parse(String data) {
        try {
            return JSON.readTree(data) instanceof ObjectNode o ? o : null;
        } catch (IOException notJson) {
            return null;
        }
    }

    static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalStateException("a parsed JSON event could not be written again", e);
        }
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /**
     * {@code node}, an event of {@code format}, with placeholders restored where they lie whole inside one string
     * value, or null when it has none: an event that repeats a whole text (a {@code .done} event, the final response)
     * needs no stream state.
     */
    static @Nullable ObjectNode restoredStrings(Restorer restorer, ObjectNode node, WireFormat format) {
        try {
            byte[] in = JSON.writeValueAsBytes(node);
            JsonNode out = JSON.readTree(restorer.restoreJson(in, format));
            return out.equals(node) || !(out instanceof ObjectNode o) ? null : o;
        } catch (MaskingException | IOException notJson) {
            return null;
        }
    }
}
