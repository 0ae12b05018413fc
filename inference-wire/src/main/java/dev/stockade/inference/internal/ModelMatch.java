package dev.stockade.inference.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A model-matching rule of the price data, with the data calculator's semantics: text rules compare without
 * regard to case, a regex searches anywhere in the (lower-cased) model name, {@code or}/{@code and} combine.
 */
public sealed interface ModelMatch {

    /** Whether {@code model} (already lower-cased and trimmed) matches. */
    boolean matches(String model);

    record Equals(String text) implements ModelMatch {
        public boolean matches(String model) {
            return model.equals(text);
        }
    }

    record StartsWith(String text) implements ModelMatch {
        public boolean matches(String model) {
            return model.startsWith(text);
        }
    }

    record EndsWith(String text) implements ModelMatch {
        public boolean matches(String model) {
            return model.endsWith(text);
        }
    }

    record Contains(String text) implements ModelMatch {
        public boolean matches(String model) {
            return model.contains(text);
        }
    }

    record Regex(Pattern pattern) implements ModelMatch {
        public boolean matches(String model) {
            return pattern.matcher(model).find();
        }
    }

    record Or(List<ModelMatch> any) implements ModelMatch {
        public boolean matches(String model) {
            return any.stream().anyMatch(m -> m.matches(model));
        }
    }

    record And(List<ModelMatch> all) implements ModelMatch {
        public boolean matches(String model) {
            return all.stream().allMatch(m -> m.matches(model));
        }
    }

    /** Reads a rule; throws {@link IllegalArgumentException} with a one-line reason when it is not one. */
    static ModelMatch read(JsonNode node) {
        if (node == null || !node.isObject() || node.size() != 1) {
            throw new IllegalArgumentException("a match rule must be an object with one key");
        }
        String kind = node.fieldNames().next();
        JsonNode value = node.get(kind);
        return switch (kind) {
            case "or" -> new Or(list(value));
            case "and" -> new And(list(value));
            case "regex" -> regex(text(value));
            case "equals" -> new Equals(lower(value));
            case "starts_with" -> new StartsWith(lower(value));
            case "ends_with" -> new EndsWith(lower(value));
            case "contains" -> new Contains(lower(value));
            default -> throw new IllegalArgumentException("unknown match rule `" + kind + "`");
        };
    }

    private static List<ModelMatch> list(JsonNode value) {
        if (value == null || !value.isArray() || value.isEmpty()) {
            throw new IllegalArgumentException("`or`/`and` needs a non-empty list");
        }
        List<ModelMatch> rules = new ArrayList<>();
        value.forEach(rule -> rules.add(read(rule)));
        return List.copyOf(rules);
    }

    private static ModelMatch regex(String source) {
        try {
            return new Regex(Pattern.compile(source));
        } catch (PatternSyntaxException bad) {
            throw new IllegalArgumentException("regex does not compile: " + bad.getDescription());
        }
    }

    private static String lower(JsonNode value) {
        return text(value).toLowerCase(Locale.ROOT);
    }

    private static String text(JsonNode value) {
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("a match rule's value must be a string");
        }
        return value.asText();
    }
}
