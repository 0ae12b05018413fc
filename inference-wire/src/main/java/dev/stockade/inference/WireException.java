package dev.stockade.inference;

import java.util.Objects;

/**
 * A request body the meter cannot bound, so the proxy must refuse it rather than forward it unreserved. The
 * message names the field, never the body's content.
 */
public final class WireException extends Exception {

    private static final long serialVersionUID = 1L;

    private final WireProblem problem;

    public WireException(WireProblem problem, String message) {
        super(Objects.requireNonNull(message), null, false, false);
        this.problem = Objects.requireNonNull(problem);
    }

    /** The typed reason. */
    public WireProblem problem() {
        return problem;
    }
}
