package dev.stockade.policy.graphql.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON into {@link Val} with Jackson's streaming parser, keeping the raw text of numbers (a bound
 * like {@code first: 1.50} must compare as {@code 1.50}, not as a re-rendered double). Duplicate keys are
 * an error: the server might take either value.
 */
public final class JsonValues {

    /** Thrown for any JSON that cannot be read; carries no user input. */
    public static final class JsonProblem extends Exception {
        JsonProblem(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }

    private final JsonFactory factory;

    /** A reader whose nesting is bounded by {@code maxDepth}. */
    public JsonValues(int maxDepth) {
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(maxDepth).build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    /** The one JSON value of {@code bytes} (trailing content is an error). */
    public Val read(byte[] bytes) throws JsonProblem {
        try (JsonParser parser = factory.createParser(bytes)) {
            return readDocument(parser);
        } catch (IOException | RuntimeException e) {
            throw new JsonProblem("body is not valid json", e);
        }
    }

    /** The one JSON value of {@code text}. */
    public Val read(String text) throws JsonProblem {
        try (JsonParser parser = factory.createParser(text)) {
            return readDocument(parser);
        } catch (IOException | RuntimeException e) {
            throw new JsonProblem("text is not valid json", e);
        }
    }

    private static Val readDocument(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            throw new IOException("empty");
        }
        Val value = readValue(parser, first);
        if (parser.nextToken() != null) {
            throw new IOException("trailing content");
        }
        return value;
    }

    // Recursion depth is bounded by the factory's maxNestingDepth, checked by Jackson before we descend.
    private static Val readValue(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT:
                return readObject(parser);
            case START_ARRAY:
                return readArray(parser);
            case VALUE_STRING:
                return new Val.Str(parser.getText());
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                // getText() is the number's source text, not a re-rendering.
                return new Val.Num(parser.getText());
            case VALUE_TRUE:
                return new Val.Bool(true);
            case VALUE_FALSE:
                return new Val.Bool(false);
            case VALUE_NULL:
                return Val.NULL;
            default:
                throw new IOException("unexpected token");
        }
    }

    private static Val readObject(JsonParser parser) throws IOException {
        Map<String, Val> fields = new LinkedHashMap<>();
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            fields.put(key, readValue(parser, parser.nextToken()));
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("unterminated object");
        }
        return new Val.ObjV(fields);
    }

    private static Val readArray(JsonParser parser) throws IOException {
        List<Val> items = new ArrayList<>();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token == null) {
                throw new IOException("unterminated array");
            }
            items.add(readValue(parser, token));
        }
        return new Val.ListV(items);
    }
}
