package dev.stockade.policy.graphql;

/**
 * The verdict of a {@link GraphqlFenceSet} on one request or frame.
 *
 * <p>On an allow, {@code reasonCode} and {@code detail} are {@code null}. On a deny, {@code reasonCode}
 * is one of the stable {@code graphql-*} codes (they equal policy-eval's {@code ReasonCode.code()}) and
 * {@code detail} is one lower-case line with user input in backticks; it never echoes argument values.
 */
public record FenceResult(boolean allowed, String reasonCode, String detail) {

    private static final FenceResult ALLOW = new FenceResult(true, null, null);

    /** The allow result (shared; carries no reason). */
    public static FenceResult allow() {
        return ALLOW;
    }

    /** A deny with its stable reason code and one-line detail. */
    public static FenceResult deny(String reasonCode, String detail) {
        return new FenceResult(false, reasonCode, detail);
    }

    /** This deny with {@code prefix: } in front of its detail (used to name a batch element). */
    FenceResult prefixed(String prefix) {
        return allowed ? this : new FenceResult(false, reasonCode, prefix + ": " + detail);
    }
}
