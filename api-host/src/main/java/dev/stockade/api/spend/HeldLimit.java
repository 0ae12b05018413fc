package dev.stockade.api.spend;

import dev.stockade.policy.compiler.SpendPeriod;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One spending limit with the spend counted against it and the budget held by calls in flight: what a reservation is
 * judged against, since a check that ignores holds lets every concurrent call see the same spend and overshoot.
 *
 * @param limit      the stored limit and its counted spend in the current period
 * @param heldMicros the live (unexpired) holds of the limit's organization, project or sandbox
 */
public record HeldLimit(LimitState limit, long heldMicros) {

    public HeldLimit {
        if (heldMicros < 0) {
            throw new IllegalArgumentException("held amount must not be negative");
        }
    }

    /**
     * Whether a call that may cost {@code costMicros} fits: spent + held + cost must not exceed the cap, so a
     * reservation may use the budget up to the last micro-USD, and a zero cap admits no priced call.
     */
    public boolean fits(long costMicros) {
        long committed = limit.spentMicros() + heldMicros;
        // INVARIANT: amounts are at most Money.MAX_MICROS each, so these sums stay far from overflow
        return committed + costMicros <= limit.limitMicros();
    }

    /** How a refusal names the limit: its scope, period, cap, spend, holds (when any) and when the period ends. */
    String describe() {
        LimitState l = limit;
        String held = heldMicros == 0 ? "" : ", held " + Money.usd(heldMicros) + " USD by calls in flight";
        return "the " + (l.scope().equals("org") ? "organization" : l.scope()) + "'s "
                + (l.period() == SpendPeriod.DAY ? "daily" : "monthly") + " limit of " + Money.usd(l.limitMicros())
                + " USD (spent " + Money.usd(l.spentMicros()) + " USD" + held + "; the period ends " + l.periodEnd()
                + ")";
    }

    /** The detail of the admission check's 429: every limit reached, each with when its period ends. */
    static String refusal(List<HeldLimit> reached) {
        return "spending limit reached: " + reached.stream().map(HeldLimit::describe).collect(Collectors.joining(", "))
                + "; model access stops until then, the sandbox keeps running";
    }
}
