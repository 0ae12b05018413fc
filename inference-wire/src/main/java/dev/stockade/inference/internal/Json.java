package dev.stockade.inference.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One Jackson configuration for every body this module reads: numbers kept exact (a price or a token count is
 * never rounded through a double), a repeated key refused (two readers could pick different values), trailing
 * content refused, and a string as long as the body limit allowed.
 */
public final class Json {

    private Json() {
    }

    // Mappers are immutable once built and thread-safe; one per limit value saves each stream building its own.
    private static final Map<Integer, ObjectMapper> MAPPERS = new ConcurrentHashMap<>();

    /** A mapper whose longest string is {@code maxStringChars}, shared by every reader with that limit. */
    public static ObjectMapper mapper(int maxStringChars) {
        return MAPPERS.computeIfAbsent(maxStringChars, Json::build);
    }

    private static ObjectMapper build(int maxStringChars) {
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(maxStringChars).build())
                .build();
        return JsonMapper.builder(factory)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .build();
    }

    /** Reads one JSON object, or empty when the bytes are not one. */
    public static Optional<JsonNode> object(ObjectMapper mapper, byte[] bytes, int offset, int length) {
        try (JsonParser parser = mapper.createParser(bytes, offset, length)) {
            JsonNode node = mapper.readTree(parser);
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (IOException | RuntimeException malformed) {
            return Optional.empty();
        }
    }

    /** A non-negative whole count at {@code node}, or empty when absent, null or not such a count. */
    public static OptionalLong count(JsonNode node) {
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(node.longValue());
    }

    /** The count at {@code path} under {@code node} (missing steps give empty). */
    public static OptionalLong count(JsonNode node, String... path) {
        JsonNode at = node;
        for (String step : path) {
            if (at == null) {
                return OptionalLong.empty();
            }
            at = at.get(step);
        }
        return count(at);
    }

    /** The text at {@code field} of {@code node}, when it is a non-empty string. */
    public static Optional<String> text(JsonNode node, String field) {
        JsonNode at = node == null ? null : node.get(field);
        return at != null && at.isTextual() && !at.asText().isEmpty() ? Optional.of(at.asText()) : Optional.empty();
    }
}
