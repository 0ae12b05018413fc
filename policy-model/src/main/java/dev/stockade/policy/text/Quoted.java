package dev.stockade.policy.text;

import java.util.function.UnaryOperator;

/**
 * User input as a message quotes it: in backticks, and when longer than {@value #SHOWN} characters, its
 * first {@value #SHOWN} then {@code …} and the input's length outside the backticks, so that a 125 KB URL
 * or key is never echoed whole into an error, a problem or a log. Every message of the core and the CLI
 * that quotes input goes through here (docs/semantics.md, "Input quoted in messages").
 */
public final class Quoted {
    /** How many characters of an input a message shows. */
    public static final int SHOWN = 80;

    private Quoted() {
    }

    /** {@code input} in backticks, clipped; {@code null} reads as {@code null}. */
    public static String input(String input) {
        return input(input, UnaryOperator.identity());
    }

    /**
     * {@code input} in backticks, clipped, with {@code escape} applied to the characters shown (the clip
     * comes first, so an escape never makes the shown part unbounded).
     */
    public static String input(String input, UnaryOperator<String> escape) {
        if (input == null) {
            return "`null`";
        }
        if (input.length() <= SHOWN) {
            return "`" + escape.apply(input) + "`";
        }
        return "`" + escape.apply(head(input)) + "…` (" + input.length() + " characters)";
    }

    /**
     * {@code before}, then {@code input} quoted as {@link #input(String, UnaryOperator)} quotes it, then
     * {@code after}: one string built, not a quoted one and then the line around it, because GraphQL deny
     * details are written on the request path.
     */
    public static String between(String before, String input, UnaryOperator<String> escape, String after) {
        if (input == null || input.length() > SHOWN) {
            return before + input(input, escape) + after;
        }
        return before + "`" + escape.apply(input) + "`" + after;
    }

    /** {@code input} without backticks, clipped the same way ({@code first 80…} and the length). */
    public static String clip(String input) {
        if (input == null || input.length() <= SHOWN) {
            return input;
        }
        return head(input) + "… (" + input.length() + " characters)";
    }

    /** The first {@value #SHOWN} characters, one fewer when that would split a surrogate pair. */
    private static String head(String input) {
        int end = Character.isHighSurrogate(input.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN;
        return input.substring(0, end);
    }
}
