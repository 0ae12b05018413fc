package dev.stockade.policy.graphql;

/**
 * The verdict of a {@link GraphqlFenceSet} on one request or frame.
 *
 * <p>On an allow, {@code reason} and {@code detail} are {@code null}. On a deny, {@code reason} says why
 * and {@code detail} is one lower-case line with user input in backticks; it never echoes argument values.
 */
public record FenceResult(boolean allowed, FenceReason reason, String detail) {

    private static final FenceResult ALLOW = new FenceResult(true, null, null);

    /** The allow result (shared; carries no reason). */
    public static FenceResult allow() {
        return ALLOW;
    }

    /** A deny with its reason and one-line detail. */
    public static FenceResult deny(FenceReason reason, String detail) {
        return new FenceResult(false, reason, detail);
    }

    /** The stable {@code graphql-*} wire code of a deny ({@link FenceReason#code()}), {@code null} on an allow. */
    public String reasonCode() {
        return reason == null ? null : reason.code();
    }

    /** This deny with {@code prefix: } in front of its detail (used to name a batch element). */
    FenceResult prefixed(String prefix) {
        return allowed ? this : new FenceResult(false, reason, prefix + ": " + detail);
    }
}
