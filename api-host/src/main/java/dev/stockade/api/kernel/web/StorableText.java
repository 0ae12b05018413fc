package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The rule for text the platform accepts: what it cannot store unchanged is refused at the edge, never altered and
 * never left to fail in the database. PostgreSQL text and jsonb hold no U+0000, and UTF-8 has no encoding for a lone
 * UTF-16 surrogate (an escaped {@code "\ud800"} would be read back as {@code ?}). Jackson-bound bodies are checked
 * token by token ({@link StrictJsonFactory}); documents the policy core parses (policies, sandboxes) are checked as
 * trees here.
 */
public final class StorableText {
    private StorableText() {
    }

    /** Why {@code s} cannot be stored as it is, or {@code null} when it can. */
    public static String flaw(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                return "holds the character U+0000, which the platform cannot store";
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return String.format("holds a lone surrogate (U+%04X), which is not a character", (int) c);
            }
        }
        return null;
    }

    /** Every key and string of {@code tree} checked; a 400 {@code validation_failed} pointing at each one that fails. */
    public static void check(JsonNode tree) {
        List<FieldError> errors = new ArrayList<>();
        walk(tree, "", errors);
        if (!errors.isEmpty()) {
            String detail = errors.size() == 1 ? errors.get(0).detail() : errors.size() + " values cannot be stored";
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, detail, errors);
        }
    }

    private static void walk(JsonNode node, String pointer, List<FieldError> errors) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            add(node.textValue(), pointer, "value", errors);
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), pointer + "/" + i, errors);
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String at = pointer + "/" + escape(e.getKey());
                add(e.getKey(), at, "key", errors);
                walk(e.getValue(), at, errors);
            }
        }
    }

    private static void add(String text, String pointer, String what, List<FieldError> errors) {
        String why = flaw(text);
        if (why != null) {
            String shown = pointer.isEmpty() ? "the body" : "`" + Text.clip(printable(pointer)) + "`";
            errors.add(new FieldError(printable(pointer), "unstorable-text", "the " + what + " at " + shown + " " + why));
        }
    }

    /** An RFC 6901 reference token. */
    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** A pointer that itself names an unstorable key is answered with the offending characters replaced. */
    static String printable(String pointer) {
        StringBuilder b = new StringBuilder(pointer.length());
        for (int i = 0; i < pointer.length(); i++) {
            char c = pointer.charAt(i);
            b.append(c == 0 || Character.isSurrogate(c) && !paired(pointer, i) ? '\uFFFD' : c);
        }
        return b.toString();
    }

    private static boolean paired(String s, int i) {
        char c = s.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
