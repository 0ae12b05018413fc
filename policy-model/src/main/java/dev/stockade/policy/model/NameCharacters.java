package dev.stockade.policy.model;

/**
 * The characters a name may not contain, defined once for the core (tool names, binary paths), the platform's
 * display names (organizations, projects, tokens, clusters) and anything that checks a name before sending it: the C0
 * controls (tab and NUL included), DEL, the C1 controls (U+0080 to U+009F: NEL, and U+009B, which a terminal reads as
 * a control sequence introducer), the line and paragraph separators, and the bidirectional formatting characters
 * (marks, embeddings, overrides, isolates), which can make a name read as another.
 */
public final class NameCharacters {
    private NameCharacters() {
    }

    /** Whether a name may not contain {@code c}. */
    public static boolean isForbidden(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || c == '\u061c'
                || c == '\u200e' || c == '\u200f' || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069');
    }

    /** The index of the first character of {@code name} a name may not contain, or -1 when there is none. */
    public static int firstForbidden(CharSequence name) {
        for (int i = 0; i < name.length(); i++) {
            if (isForbidden(name.charAt(i))) {
                return i;
            }
        }
        return -1;
    }
}
