package dev.stockade.policy.graphql.internal;

/**
 * TEMPORARY until branch {@code model} lands {@code dev.stockade.policy.glob.Glob}: a linear matcher
 * where {@code *} matches any run of characters. Deleted after the merge.
 */
final class TextGlob {
    private final String pattern;

    TextGlob(String pattern) {
        this.pattern = pattern;
    }

    boolean matches(CharSequence text) {
        int p = 0;
        int t = 0;
        int star = -1;
        int mark = 0;
        while (t < text.length()) {
            if (p < pattern.length() && pattern.charAt(p) != '*' && pattern.charAt(p) == text.charAt(t)) {
                p++;
                t++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                mark = t;
            } else if (star >= 0) {
                p = star + 1;
                t = ++mark;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
