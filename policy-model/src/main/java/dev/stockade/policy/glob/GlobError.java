package dev.stockade.policy.glob;

/**
 * A syntax error in a pattern.
 *
 * @param offset  0-based char offset inside the pattern text where the error is
 * @param message one lower-case line, user input in backticks
 */
public record GlobError(int offset, String message) {
}
