package dev.stockade.policy.glob;

import java.util.List;

/**
 * The outcome of {@link Glob#compile}: a glob when the pattern is valid, otherwise its errors.
 *
 * @param glob   the compiled glob, {@code null} when there are errors
 * @param errors the syntax errors, sorted by offset; empty when valid
 */
public record GlobResult(Glob glob, List<GlobError> errors) {

    /** Copies the errors, so the result stays immutable. */
    public GlobResult {
        errors = List.copyOf(errors);
    }

    /** Whether the pattern compiled without errors. */
    public boolean ok() {
        return errors.isEmpty();
    }
}
