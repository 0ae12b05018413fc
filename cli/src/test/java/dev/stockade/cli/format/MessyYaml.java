package dev.stockade.cli.format;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Writes a JSON tree as YAML the way people do, in every style at once, chosen by a seeded {@link Random}: keys
 * shuffled, flow and block collections, plain, single- and double-quoted strings, and comments above keys and
 * after values (each one unique, {@code # cN}, so a test can find every one in the output).
 */
final class MessyYaml {
    private static final Pattern SIMPLE = Pattern.compile("[a-z][a-z0-9.-]*");
    private static final List<String> SPECIAL = List.of("y", "n", "yes", "no", "on", "off", "true", "false", "null");
    private final Random random;
    private final StringBuilder out = new StringBuilder();
    private int comments;

    private MessyYaml(long seed) {
        this.random = new Random(seed);
    }

    /** The YAML text of {@code tree}, in styles drawn from {@code seed}, and how many comments it carries. */
    static Written write(JsonNode tree, long seed) {
        MessyYaml y = new MessyYaml(seed);
        y.mapping(tree, 0, false);
        return new Written(y.out.toString(), y.comments);
    }

    record Written(String text, int comments) {
    }

    /** {@code afterDash}: the first key goes on the line of a list item's {@code - }. */
    private void mapping(JsonNode node, int indent, boolean afterDash) {
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
        node.fields().forEachRemaining(fields::add);
        Collections.shuffle(fields, random);
        boolean first = true;
        for (Map.Entry<String, JsonNode> f : fields) {
            if (!first || !afterDash) {
                maybeCommentLine(indent);
                pad(indent);
            }
            first = false;
            out.append(f.getKey()).append(':');
            value(f.getValue(), indent);
        }
    }

    /** After {@code key:}: a scalar or flow collection on the same line, or a block collection below. */
    private void value(JsonNode v, int indent) {
        if (v.isValueNode()) {
            out.append(' ').append(scalar(v));
            maybeInlineComment();
            out.append('\n');
        } else if (v.isEmpty() || (leaf(v) && random.nextBoolean())) {
            out.append(' ').append(flow(v));
            maybeInlineComment();
            out.append('\n');
        } else if (v.isObject()) {
            out.append('\n');
            mapping(v, indent + 2, false);
        } else {
            out.append('\n');
            for (JsonNode item : v) {
                maybeCommentLine(indent + 2);
                pad(indent + 2);
                out.append("- ");
                if (item.isObject() && !item.isEmpty()) {
                    mapping(item, indent + 4, true);
                } else {
                    out.append(item.isValueNode() ? scalar(item) : flow(item)).append('\n');
                }
            }
        }
    }

    private static boolean leaf(JsonNode v) {
        for (JsonNode child : v) {
            if (!child.isValueNode()) {
                return false;
            }
        }
        return true;
    }

    private String flow(JsonNode v) {
        List<String> parts = new ArrayList<>();
        if (v.isObject()) {
            v.fields().forEachRemaining(f -> parts.add(f.getKey() + ": " + flowScalar(f.getValue())));
            return "{" + String.join(", ", parts) + "}";
        }
        v.forEach(item -> parts.add(flowScalar(item)));
        return "[" + String.join(", ", parts) + "]";
    }

    private String flowScalar(JsonNode v) {
        return v.isValueNode() ? scalar(v) : flow(v);
    }

    /** A string plain when that surely reads back the same, else single- or double-quoted; other values as written. */
    private String scalar(JsonNode v) {
        if (!v.isTextual()) {
            return v.toString();
        }
        String s = v.asText();
        int style = random.nextInt(3);
        if (style == 0 && SIMPLE.matcher(s).matches() && !SPECIAL.contains(s)) {
            return s;
        }
        if (style == 1 && s.indexOf('\n') < 0 && s.chars().noneMatch(Character::isISOControl)) {
            return "'" + s.replace("'", "''") + "'";
        }
        return v.toString(); // JSON string text is a YAML double-quoted scalar
    }

    private void maybeCommentLine(int indent) {
        if (random.nextInt(4) == 0) {
            pad(indent);
            out.append("# c").append(comments++).append('\n');
        }
    }

    private void maybeInlineComment() {
        if (random.nextInt(4) == 0) {
            out.append("  # c").append(comments++);
        }
    }

    private void pad(int n) {
        out.append(" ".repeat(n));
    }
}
