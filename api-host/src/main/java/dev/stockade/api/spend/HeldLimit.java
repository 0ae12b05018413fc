package dev.stockade.api.spend;

import dev.stockade.policy.compiler.HeldSpend;
import dev.stockade.policy.compiler.SpendPeriod;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One stored spending limit with the spend counted against it and the budget held by calls in flight, as read under
 * the limit's row lock; the core judges a reservation against {@link #spend()} ({@code ReservationFit.judge}).
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

    /** The limit as the core's reservation rule sees it; a scope the database cannot hold fails loudly. */
    public HeldSpend spend() {
        return new HeldSpend(limit.limit(), heldMicros);
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
