package dev.stockade.policy.glob;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deliberately naive matcher written from the documented semantics (docs/globs.md), not from the
 * compiled form: plain recursion over the pattern text. Exponential in the worst case; the oracle for
 * small inputs only.
 */
final class ReferenceGlob {
    private ReferenceGlob() {
    }

    static boolean matches(GlobKind kind, String pattern, String input) {
        return switch (kind) {
            case NAME -> any(pattern, 0, input, 0, false);
            case VALUE -> any(pattern, 0, input, 0, true);
            case PATH -> path(pattern, 0, input, 0);
            case DOMAIN -> domain(pattern, input);
        };
    }

    /** {@code *} is any sequence; with escapes, {@code \x} is the literal x. */
    private static boolean any(String p, int i, String s, int j, boolean escapes) {
        if (i == p.length()) {
            return j == s.length();
        }
        char c = p.charAt(i);
        if (c == '*') {
            for (int k = j; k <= s.length(); k++) {
                if (any(p, i + 1, s, k, escapes)) {
                    return true;
                }
            }
            return false;
        }
        if (escapes && c == '\\') {
            i++;
            c = p.charAt(i);
        }
        return j < s.length() && s.charAt(j) == c && any(p, i + 1, s, j + 1, escapes);
    }

    private static boolean path(String p, int i, String s, int j) {
        if (i == p.length()) {
            return j == s.length();
        }
        if (p.startsWith("**", i)) {
            for (int k = j; k <= s.length(); k++) {
                if (path(p, i + 2, s, k)) {
                    return true;
                }
            }
            return false;
        }
        if (p.charAt(i) == '*') {
            for (int k = j; k <= s.length(); k++) {
                if (path(p, i + 1, s, k)) {
                    return true;
                }
                if (k < s.length() && s.charAt(k) == '/') {
                    return false;
                }
            }
            return false;
        }
        return j < s.length() && s.charAt(j) == p.charAt(i) && path(p, i + 1, s, j + 1);
    }

    /** Label by label from the right; a leftmost lone {@code *} covers one or more labels. */
    private static boolean domain(String pattern, String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        String p = pattern.toLowerCase(Locale.ROOT);
        if (p.endsWith(".")) {
            p = p.substring(0, p.length() - 1);
        }
        List<String> hostLabels = List.of(h.split("\\.", -1));
        if (h.isEmpty() || hostLabels.contains("")) {
            return false;
        }
        List<String> patternLabels = new ArrayList<>(List.of(p.split("\\.", -1)));
        boolean apex = patternLabels.get(0).equals("*");
        if (apex) {
            patternLabels.remove(0);
            if (hostLabels.size() <= patternLabels.size()) {
                return false;
            }
        } else if (hostLabels.size() != patternLabels.size()) {
            return false;
        }
        int offset = hostLabels.size() - patternLabels.size();
        for (int k = 0; k < patternLabels.size(); k++) {
            if (!any(patternLabels.get(k), 0, hostLabels.get(offset + k), 0, false)) {
                return false;
            }
        }
        return true;
    }
}
