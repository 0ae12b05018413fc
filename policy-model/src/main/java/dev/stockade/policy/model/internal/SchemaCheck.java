package dev.stockade.policy.model.internal;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.everit.json.schema.EnumSchema;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONArray;
import org.json.JSONObject;
import org.json.JSONTokener;

/**
 * Layer one of validation: the shipped JSON Schema (draft-07), run with everit, every violation mapped
 * to a problem with a pointer (an unknown key points at that key, a missing key at where it belongs).
 */
public final class SchemaCheck {
    /** The classpath resource of the schema. */
    public static final String RESOURCE = "/dev/stockade/policy/model/policy.schema.json";

    // Only everit's fixed message format is matched here, never user text as a pattern.
    private static final Pattern EXPECTED = Pattern.compile("expected type: (\\w+)");
    private static final Schema SCHEMA = load();

    private SchemaCheck() {
    }

    private static Schema load() {
        try (InputStream in = SchemaCheck.class.getResourceAsStream(RESOURCE)) {
            return SchemaLoader.builder().draftV7Support().schemaJson(new JSONObject(new JSONTokener(in)))
                    .build().load().build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema violations of {@code root}; empty when it conforms. */
    public static List<Problem> check(JsonNode root) {
        List<Problem> out = new ArrayList<>();
        try {
            SCHEMA.validate(toJson(root));
        } catch (ValidationException e) {
            List<ValidationException> leaves = new ArrayList<>();
            flatten(e, leaves);
            Set<String> wrongType = new HashSet<>();
            for (ValidationException leaf : leaves) {
                Problem p = map(leaf, root);
                if (p != null) {
                    out.add(p);
                    if (ProblemCode.WRONG_TYPE.is(p) || ProblemCode.NULL_VALUE.is(p)) {
                        wrongType.add(p.pointer());
                    }
                }
            }
            // A value of the wrong type also fails its enum; report the type only.
            out.removeIf(p -> ProblemCode.UNKNOWN_VALUE.is(p) && wrongType.contains(p.pointer()));
        }
        return out.stream().distinct().collect(Collectors.toList());
    }

    private static void flatten(ValidationException e, List<ValidationException> out) {
        if (e.getCausingExceptions().isEmpty()) {
            out.add(e);
        } else {
            e.getCausingExceptions().forEach(c -> flatten(c, out));
        }
    }

    private static Problem map(ValidationException e, JsonNode root) {
        String at = e.getPointerToViolation() == null ? "" : e.getPointerToViolation();
        String pointer = at.startsWith("#") ? at.substring(1) : at;
        String keyword = e.getKeyword() == null ? "" : e.getKeyword();
        String message = e.getErrorMessage() == null ? "" : e.getErrorMessage();
        switch (keyword) {
            case "additionalProperties": {
                String key = bracketed(message);
                return Problem.error(ProblemCode.UNKNOWN_KEY, pointer + "/" + TreeReader.escape(key),
                        "unknown key " + Quoted.input(key) + where(pointer),
                        "check the spelling; the keys allowed here are listed in docs/policy-reference.md");
            }
            case "required": {
                String key = bracketed(message);
                return Problem.error(ProblemCode.MISSING_KEY, pointer + "/" + TreeReader.escape(key),
                        "missing required key " + Quoted.input(key) + where(pointer), null);
            }
            case "type": {
                JsonNode found = at(root, pointer);
                Matcher m = EXPECTED.matcher(message);
                String expected = m.find() ? article(m.group(1).toLowerCase(java.util.Locale.ROOT)) : "another type";
                if (found != null && found.isNull()) {
                    return Problem.error(ProblemCode.NULL_VALUE, pointer, Quoted.input(name(pointer)) + " cannot be null",
                            "omit the key instead");
                }
                return Problem.error(ProblemCode.WRONG_TYPE, pointer,
                        Quoted.input(name(pointer)) + " must be " + expected + ", not " + describe(found),
                        expected.equals("a boolean") ? "write `true` or `false` (YAML 1.1 forms such as `yes` and"
                                + " `on` are not booleans here)" : null);
            }
            case "enum": {
                JsonNode found = at(root, pointer);
                String allowed = e.getViolatedSchema() instanceof EnumSchema en
                        ? en.getPossibleValues().stream().map(v -> "`" + v + "`").sorted().collect(Collectors.joining(", "))
                        : "";
                return Problem.error(ProblemCode.UNKNOWN_VALUE, pointer,
                        Quoted.input(found == null ? "" : found.asText()) + " is not a valid " + Quoted.input(name(pointer)),
                        allowed.isEmpty() ? null : "use one of " + allowed);
            }
            default:
                return Problem.error(ProblemCode.SCHEMA, pointer, message.isEmpty() ? "value does not fit the schema"
                        : Character.toLowerCase(message.charAt(0)) + message.substring(1), null);
        }
    }

    private static String where(String pointer) {
        return pointer.isEmpty() ? "" : " in " + Quoted.input(pointer);
    }

    private static String article(String type) {
        return switch (type) {
            case "object", "array", "integer" -> "an " + type;
            default -> "a " + type;
        };
    }

    private static String describe(JsonNode n) {
        if (n == null) {
            return "nothing";
        }
        return switch (n.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            default -> "null";
        };
    }

    /** The last reference token, unescaped, or the array's name for an index. */
    static String name(String pointer) {
        if (pointer.isEmpty()) {
            return "policy";
        }
        String[] parts = pointer.substring(1).split("/", -1);
        for (int i = parts.length - 1; i >= 0; i--) {
            if (!parts[i].chars().allMatch(c -> TextRules.isDigit((char) c)) || parts[i].isEmpty()) {
                return parts[i].replace("~1", "/").replace("~0", "~")
                        + (i < parts.length - 1 ? " entry" : "");
            }
        }
        return parts[0];
    }

    private static String bracketed(String message) {
        int open = message.indexOf('[');
        int close = message.lastIndexOf(']');
        return open >= 0 && close > open ? message.substring(open + 1, close) : "?";
    }

    static JsonNode at(JsonNode root, String pointer) {
        try {
            JsonNode n = root.at(pointer);
            return n.isMissingNode() ? null : n;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Jackson tree to org.json, as everit needs. */
    static Object toJson(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return JSONObject.NULL;
        }
        if (n.isObject()) {
            JSONObject o = new JSONObject();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                o.put(f.getKey(), toJson(f.getValue()));
            }
            return o;
        }
        if (n.isArray()) {
            JSONArray a = new JSONArray();
            n.forEach(c -> a.put(toJson(c)));
            return a;
        }
        if (n.isTextual()) {
            return n.textValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isIntegralNumber()) {
            return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
        }
        if (n.isNumber()) {
            return n.decimalValue();
        }
        return n.asText();
    }
}
