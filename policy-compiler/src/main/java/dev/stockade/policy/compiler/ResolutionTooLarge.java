package dev.stockade.policy.compiler;

/**
 * Resolution refused: the policies that reach one agent would resolve to more rows, or need more steps,
 * than the documented bounds ({@link #MAX_ROWS}, {@link #MAX_WILDCARD_ROWS}, {@link #MAX_STEPS};
 * docs/policy-reference.md "Limits").
 * Wildcards that cross (in-label wildcards of different policies that can meet, such as {@code a1-*.x.com}
 * in one and {@code *-b1.x.com} in another) make a row per pair, so two valid policies can multiply.
 * Nothing is decided on such a set: the caller refuses it (the CLI exits 2, a host keeps its previous
 * program or denies).
 */
public final class ResolutionTooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Most rows an effective policy may have. */
    public static final int MAX_ROWS = 100_000;
    /**
     * Most rows holding an in-label wildcard ({@code a*.x.com}): a host is checked against every such row
     * sharing its literal suffix, so they bound the work of one decision as well as compilation.
     */
    public static final int MAX_WILDCARD_ROWS = 10_000;
    /** Most pattern intersections resolution may try. */
    public static final int MAX_STEPS = 5_000_000;

    /** Refused with {@code message}, one line for a terminal or a problem detail. */
    public ResolutionTooLarge(String message) {
        super(message, null, false, false);
    }
}
