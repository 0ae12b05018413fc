package dev.stockade.pii.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A word of prose: letters with inner apostrophes or hyphens ("O'Neil", "Jean-Luc"). Tokens that belong to
 * code ({@code user.Name}, {@code Foo_Bar}, {@code getName(}) are marked so that names are not found in
 * identifiers.
 */
record WordToken(int start, int end, String text, boolean capitalised, boolean code) {

    static List<WordToken> scan(String s) {
        List<WordToken> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            if (!Character.isLetter(s.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && (Character.isLetter(s.charAt(i)) || inner(s, i))) {
                i++;
            }
            int end = i;
            if (end - start > 2 && (s.startsWith("'s", end - 2) || s.startsWith("\u2019s", end - 2))) {
                end -= 2;
            }
            String text = s.substring(start, end);
            out.add(new WordToken(start, end, text, capitalised(text), code(s, start, i)));
        }
        return out;
    }

    private static boolean inner(String s, int i) {
        char c = s.charAt(i);
        return (c == '\'' || c == '\u2019' || c == '-') && i + 1 < s.length() && Character.isLetter(s.charAt(i + 1))
                && i > 0 && Character.isLetter(s.charAt(i - 1));
    }

    // Upper-case first letter, then lower case, except the inner capitals of McDonald, O'Neil, Jean-Luc.
    private static boolean capitalised(String t) {
        if (!Character.isUpperCase(t.charAt(0))) {
            return false;
        }
        if (t.length() == 1) {
            return true;
        }
        int upper = 0;
        for (int k = 1; k < t.length(); k++) {
            char c = t.charAt(k);
            if (Character.isUpperCase(c)) {
                char p = t.charAt(k - 1);
                boolean allowed = p == '\'' || p == '-' || p == '\u2019' || t.startsWith("Mc") && k == 2
                        || t.startsWith("Mac") && k == 3;
                if (!allowed) {
                    return false;
                }
                upper++;
            }
        }
        return upper < t.length() - 1;
    }

    private static boolean code(String s, int start, int end) {
        char before = start > 0 ? s.charAt(start - 1) : ' ';
        char after = end < s.length() ? s.charAt(end) : ' ';
        if (Character.isDigit(before) || "_$/\\#@<`=".indexOf(before) >= 0) {
            return true;
        }
        if (before == '.' && start >= 2 && Character.isLetterOrDigit(s.charAt(start - 2))) {
            return true;
        }
        if (Character.isDigit(after) || after == '_' || after == '(' || after == '/' || after == '=') {
            return true;
        }
        return after == '.' && end + 1 < s.length() && Character.isLetter(s.charAt(end + 1));
    }
}
