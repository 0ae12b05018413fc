package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.text.Quoted;

/** How GraphQL deny details quote user input; the reasons themselves are {@link dev.stockade.policy.graphql.FenceReason}. */
public final class Reason {

    private Reason() {
    }

    /**
     * User input for a detail line, in backticks and clipped by the core's one rule ({@link Quoted}), with
     * control characters, backticks and backslashes escaped so that a detail stays one line.
     */
    public static String quote(String input) {
        return Quoted.input(input, Reason::escape);
    }

    /**
     * {@code before + quote(input) + after}, built as one string: the refusal details written while a request
     * is judged use this.
     */
    public static String quote(String before, String input, String after) {
        return Quoted.between(before, input, Reason::escape, after);
    }

    private static String escape(String shown) {
        int i = 0;
        while (i < shown.length() && !escaped(shown.charAt(i))) {
            i++;
        }
        if (i == shown.length()) {
            return shown; // the common case: nothing to escape, nothing allocated
        }
        StringBuilder out = new StringBuilder(shown.length() + 8).append(shown, 0, i);
        for (; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if (escaped(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean escaped(char c) {
        return c < 0x20 || c == 0x7f || c == '`' || c == '\\' || Character.isSurrogate(c);
    }
}
