package dev.stockade.api.kernel.web;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * Generates request bodies from a route's schema in the served OpenAPI document, with edge values at the leaves and
 * damage to the bytes: NUL and lone surrogates (escaped), C1 and bidi controls, times outside any database's range,
 * huge and non-finite numbers, deep nesting, duplicate keys, text after the value, invalid UTF-8, truncation.
 */
final class HostileBodies {
    private static final String[] STRINGS = {"", " ", "x", "\u0000", "a\u0000b", "\ud800", "x\udfff", "\u0085",
        "\u009b[31m", "\u202egnp.exe", "\u2028", "\t", "\uD83D\uDE00", "../../etc/passwd", "' OR 1=1 --", "%00",
        "x".repeat(2100), "名前", "+999999999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "2030-01-01T00:00:00Z",
        "2030-01-01T00:00:00.123456789Z", "-1", "1e400", "ADMIN", "MEMBER", "month", "day", "25", "0.000001",
        "http://127.1/mcp", "http://0x7f.0.0.1/", "https://example.com/mcp", "00000000-0000-0000-0000-000000000000",
        "a@b.example", "github.com", "*.example.com"};
    private static final String[] NUMBERS = {"0", "-0", "1", "-1", "2147483648", "-9223372036854775809",
        "9223372036854775808", "1.5", "1e308", "1e400", "-1e400", "1" + "0".repeat(400), "0.0000001", "1E-400"};
    private static final byte[][] BAD_BYTES = {{(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0xC0, (byte) 0x80},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xE2}};

    private final OpenAPI doc;
    private final RandomnessSource random;

    HostileBodies(OpenAPI doc, RandomnessSource random) {
        this.doc = doc;
        this.random = random;
    }

    private int pick(int n) {
        return (int) random.next(Constraint.between(0, n - 1));
    }

    private boolean chance(int percent) {
        return pick(100) < percent;
    }

    /** A body for {@code schema}: JSON text, then possibly damaged as bytes. */
    byte[] body(Schema<?> schema) {
        StringBuilder json = new StringBuilder();
        value(schema, json, 0);
        String text = json.toString();
        if (chance(15) && text.startsWith("{\"")) {
            int colon = text.indexOf("\":");
            text = "{" + text.substring(1, colon + 2) + "1, " + text.substring(1); // the first key twice
        }
        if (chance(8)) {
            text = text + (pick(2) == 0 ? " {}" : "{\"x\": 1}");
        }
        if (chance(5)) {
            text = "[".repeat(1200) + "]".repeat(1200);
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (chance(12) && bytes.length > 0) {
            int at = pick(bytes.length);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(bytes, 0, at);
            out.writeBytes(BAD_BYTES[pick(BAD_BYTES.length)]);
            out.write(bytes, at, bytes.length - at);
            bytes = out.toByteArray();
        }
        if (chance(5) && bytes.length > 1) {
            bytes = java.util.Arrays.copyOf(bytes, pick(bytes.length));
        }
        return bytes;
    }

    private Schema<?> resolve(Schema<?> s) {
        for (int i = 0; i < 8 && s != null && s.get$ref() != null; i++) {
            String name = s.get$ref().substring(s.get$ref().lastIndexOf('/') + 1);
            s = doc.getComponents().getSchemas().get(name);
        }
        return s;
    }

    private void value(Schema<?> schema, StringBuilder out, int depth) {
        Schema<?> s = resolve(schema);
        if (depth > 6 || chance(7)) {
            anything(out, depth);
            return;
        }
        String type = s == null || s.getType() == null ? (s != null && s.getProperties() != null ? "object" : "")
                : s.getType();
        switch (type) {
            case "object" -> object(s, out, depth);
            case "array" -> {
                out.append('[');
                for (int i = 0, n = pick(3); i < n; i++) {
                    out.append(i > 0 ? "," : "");
                    value(s.getItems(), out, depth + 1);
                }
                out.append(']');
            }
            case "string" -> string(s.getEnum() != null && !s.getEnum().isEmpty() && chance(50)
                    ? String.valueOf(s.getEnum().get(pick(s.getEnum().size()))) : STRINGS[pick(STRINGS.length)], out);
            case "integer", "number" -> out.append(NUMBERS[pick(NUMBERS.length)]);
            case "boolean" -> out.append(pick(2) == 0 ? "true" : "false");
            default -> anything(out, depth);
        }
    }

    private void object(Schema<?> s, StringBuilder out, int depth) {
        List<String> keys = new ArrayList<>();
        Map<String, Schema> props = s.getProperties() == null ? Map.of() : s.getProperties();
        for (String k : props.keySet()) {
            if (s.getRequired() != null && s.getRequired().contains(k) || chance(70)) {
                keys.add(k);
            }
        }
        if (chance(10)) {
            keys.add(STRINGS[pick(STRINGS.length)]); // an unknown or unstorable key
        }
        out.append('{');
        for (int i = 0; i < keys.size(); i++) {
            out.append(i > 0 ? "," : "");
            string(keys.get(i), out);
            out.append(':');
            Schema<?> p = props.get(keys.get(i));
            if (p == null) {
                anything(out, depth + 1);
            } else {
                value(p, out, depth + 1);
            }
        }
        out.append('}');
    }

    /** Any JSON value, whatever the schema says: wrong types, null, nesting. */
    private void anything(StringBuilder out, int depth) {
        switch (depth > 6 ? pick(4) : pick(6)) {
            case 0 -> out.append("null");
            case 1 -> out.append(NUMBERS[pick(NUMBERS.length)]);
            case 2 -> string(STRINGS[pick(STRINGS.length)], out);
            case 3 -> out.append(pick(2) == 0 ? "true" : "false");
            case 4 -> {
                out.append('[');
                anything(out, depth + 1);
                out.append(']');
            }
            default -> {
                out.append("{\"k\":");
                anything(out, depth + 1);
                out.append('}');
            }
        }
    }

    /** A JSON string with everything outside printable ASCII escaped, so lone surrogates are sent as escapes. */
    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
