package dev.stockade.policy.graphql.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 6901 pointer rooted at a field's arguments object, split and unescaped once at compile time.
 * A malformed pointer (not starting with {@code /}, a bad {@code ~} escape) reaches nothing, so its
 * condition never holds: validation refuses it earlier, this only keeps the fence closed.
 */
final class ArgumentPointer {

    private final String[] tokens; // null: malformed

    private ArgumentPointer(String[] tokens) {
        this.tokens = tokens;
    }

    static ArgumentPointer compile(String pointer) {
        if (pointer == null || !pointer.startsWith("/")) {
            return new ArgumentPointer(null);
        }
        List<String> tokens = new ArrayList<>();
        for (String raw : pointer.substring(1).split("/", -1)) {
            String token = unescape(raw);
            if (token == null) {
                return new ArgumentPointer(null);
            }
            tokens.add(token);
        }
        return new ArgumentPointer(tokens.toArray(String[]::new));
    }

    private static String unescape(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '~') {
                out.append(c);
            } else if (i + 1 < raw.length() && (raw.charAt(i + 1) == '0' || raw.charAt(i + 1) == '1')) {
                out.append(raw.charAt(++i) == '0' ? '~' : '/');
            } else {
                return null;
            }
        }
        return out.toString();
    }

    /** The value the pointer reaches, or {@link Val#NOTHING}. */
    Val resolve(Val.ObjV arguments) {
        if (tokens == null) {
            return Val.NOTHING;
        }
        Val current = arguments;
        for (String token : tokens) {
            if (current instanceof Val.ObjV object) {
                Val next = object.fields().get(token);
                current = next == null ? Val.NOTHING : next;
            } else if (current instanceof Val.ListV list) {
                int index = index(token);
                current = index >= 0 && index < list.items().size() ? list.items().get(index) : Val.NOTHING;
            } else {
                return Val.NOTHING;
            }
        }
        return current;
    }

    /** RFC 6901 array index: {@code 0} or digits without a leading zero; -1 otherwise. */
    private static int index(String token) {
        if (token.isEmpty() || token.length() > 9 || (token.length() > 1 && token.charAt(0) == '0')) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
