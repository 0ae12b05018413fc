package dev.stockade.policy.model.internal;

import dev.stockade.policy.model.NameCharacters;

/**
 * The character classes the policy grammar names, defined once. "Whitespace" is every Unicode White_Space
 * character (which {@link String#strip()} misses in part: U+0085, U+00A0, U+2007, U+202F) plus the invisible
 * U+200B, U+2060 and U+FEFF; hexadecimal digits are ASCII only ({@link Character#digit} would take
 * fullwidth and Arabic-Indic digits).
 */
public final class TextRules {
    private TextRules() {
    }

    /** Whether {@code c} is whitespace or an invisible separator. */
    public static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u0085' || c == '\u200b'
                || c == '\u2060' || c == '\ufeff' || c == '\u180e';
    }

    /** Whether {@code s} is empty or only whitespace. */
    public static boolean isBlank(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isSpace(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} starts or ends with whitespace. */
    public static boolean hasEdgeSpace(String s) {
        return !s.isEmpty() && (isSpace(s.charAt(0)) || isSpace(s.charAt(s.length() - 1)));
    }

    /** {@code s} without leading and trailing whitespace. */
    public static String strip(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && isSpace(s.charAt(from))) {
            from++;
        }
        while (to > from && isSpace(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(from, to);
    }

    /** Whether {@code s} holds a character a name may not contain ({@link NameCharacters}) anywhere. */
    public static boolean hasControl(String s) {
        return NameCharacters.firstForbidden(s) >= 0;
    }

    /** Whether {@code c} is an ASCII hexadecimal digit. */
    public static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** Whether {@code c} is an ASCII decimal digit. */
    public static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
