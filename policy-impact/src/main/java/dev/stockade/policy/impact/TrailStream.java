package dev.stockade.policy.impact;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * Reads an exported trail entry by entry without holding it whole: the object {@code stockade audit --all --format
 * json} writes ({@code {"items": [...]}}, other keys ignored) or a bare array of entries. A malformed file is a
 * {@link TrailFormatException} with the line and column.
 */
public final class TrailStream {
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build()).build());

    private TrailStream() {
    }

    /** A trail file that is not an export, with where it went wrong. */
    public static final class TrailFormatException extends Exception {
        private static final long serialVersionUID = 1L;

        TrailFormatException(String message, JsonLocation at) {
            super(message + " at line " + at.getLineNr() + ", column " + at.getColumnNr());
        }
    }

    /** Hands every entry of {@code in} to {@code sink}, in file order. */
    public static void read(InputStream in, Consumer<RecordedDecision> sink) throws IOException, TrailFormatException {
        try (JsonParser p = JSON.createParser(in)) {
            JsonToken first = p.nextToken();
            if (first == JsonToken.START_OBJECT) {
                if (!toItems(p)) {
                    throw new TrailFormatException("an exported trail has an `items` array", p.currentTokenLocation());
                }
            } else if (first != JsonToken.START_ARRAY) {
                throw new TrailFormatException("an exported trail is a JSON object with `items` or an array",
                        p.currentTokenLocation());
            }
            while (p.nextToken() != JsonToken.END_ARRAY) {
                if (p.currentToken() != JsonToken.START_OBJECT) {
                    throw new TrailFormatException("each trail entry is a JSON object", p.currentTokenLocation());
                }
                JsonNode entry = JSON.readTree(p);
                sink.accept(TrailEntries.read(entry));
            }
        } catch (JsonProcessingException e) {
            throw new TrailFormatException("not JSON: " + e.getOriginalMessage(), e.getLocation() == null
                    ? JsonLocation.NA : e.getLocation());
        }
    }

    /** Moves to the start of the top-level {@code items} array; false when there is none. */
    private static boolean toItems(JsonParser p) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if ("items".equals(name) && value == JsonToken.START_ARRAY) {
                return true;
            }
            p.skipChildren();
        }
        return false;
    }
}
