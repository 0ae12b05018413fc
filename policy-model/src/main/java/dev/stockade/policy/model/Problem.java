package dev.stockade.policy.model;

/**
 * One thing wrong with a document. Codes are stable (docs/problems.md) and kebab-case.
 *
 * @param code     stable kebab-case code, e.g. {@code unknown-key}
 * @param severity error or warning
 * @param pointer  RFC 6901 pointer into the document ({@code ""} is the whole document)
 * @param line     1-based line, 0 when unknown
 * @param column   1-based column, 0 when unknown
 * @param message  one lower-case line, user input in backticks, no trailing period
 * @param help     a hint, or {@code null}
 */
public record Problem(String code, Severity severity, String pointer, int line, int column, String message,
        String help) {
    /** Longest message or help kept; longer ones (quoting a huge value) end in {@code ...}. */
    public static final int MAX_TEXT = 400;

    /** Clips the message and help to their length limit, so one problem stays one readable line. */
    public Problem {
        message = clip(message);
        help = clip(help);
    }

    private static String clip(String text) {
        return text == null || text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT - 3) + "...";
    }

    /** An error without a position yet. */
    public static Problem error(ProblemCode code, String pointer, String message, String help) {
        return error(code.code(), pointer, message, help);
    }

    /** A warning without a position yet. */
    public static Problem warning(ProblemCode code, String pointer, String message, String help) {
        return warning(code.code(), pointer, message, help);
    }

    /** An error without a position yet, by code text (prefer the {@link ProblemCode} overload). */
    public static Problem error(String code, String pointer, String message, String help) {
        return new Problem(code, Severity.ERROR, pointer, 0, 0, message, help);
    }

    /** A warning without a position yet, by code text (prefer the {@link ProblemCode} overload). */
    public static Problem warning(String code, String pointer, String message, String help) {
        return new Problem(code, Severity.WARNING, pointer, 0, 0, message, help);
    }

    /** This problem placed at {@code position}. */
    public Problem at(SourcePosition position) {
        return position == null ? this
                : new Problem(code, severity, pointer, position.line(), position.column(), message, help);
    }

    /** This problem with {@code prefix} put in front of its pointer (for a document nested in another). */
    public Problem withPointerPrefix(String prefix) {
        return new Problem(code, severity, prefix + pointer, line, column, message, help);
    }

    /** Whether this is an error. */
    public boolean isError() {
        return severity == Severity.ERROR;
    }
}
