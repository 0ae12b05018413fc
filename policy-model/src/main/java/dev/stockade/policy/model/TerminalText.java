package dev.stockade.policy.model;

/**
 * User-supplied text made safe for a terminal or a CI log: control characters (C0 but tab, DEL, C1, the
 * Unicode line and paragraph separators, bidirectional overrides) are written as a backslash, {@code x} and
 * two hex digits, or a backslash, {@code u} and four, so that a value cannot move the cursor, ring a bell, change colours, reorder what is
 * shown or start a new line (which a CI system could read as a command such as {@code ::error}).
 */
public final class TerminalText {
    private TerminalText() {
    }

    /** {@code text} with every unsafe character escaped; {@code null} stays {@code null}. */
    public static String escape(String text) {
        if (text == null) {
            return null;
        }
        int i = 0;
        while (i < text.length() && !unsafe(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            append(out, text.charAt(i));
        }
        return out.toString();
    }

    /** Appends {@code c}, escaped when unsafe. */
    static void append(StringBuilder out, char c) {
        if (!unsafe(c)) {
            out.append(c);
        } else if (c < 0x100) {
            out.append(String.format("\\x%02x", (int) c));
        } else {
            out.append(String.format("\\u%04x", (int) c));
        }
    }

    /** How many characters {@code c} takes once escaped. */
    static int width(char c) {
        return !unsafe(c) ? 1 : c < 0x100 ? 4 : 6;
    }

    /** Whether {@code c} must be escaped (a tab is kept: it moves nothing but the column). */
    static boolean unsafe(char c) {
        return (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069') || c == '\u200e'
                || c == '\u200f' || c == '\u061c';
    }
}
