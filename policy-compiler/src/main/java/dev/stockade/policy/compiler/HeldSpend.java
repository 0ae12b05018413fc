package dev.stockade.policy.compiler;

import java.util.Objects;

/**
 * One spending limit with the spend counted against it and the budget that calls in flight hold against it: what a
 * reservation is judged against ({@link ReservationFit#judge}), since a judgement that ignores holds lets every
 * concurrent call see the same spend and overshoot.
 *
 * @param limit      the limit and its counted spend in the period that holds the call
 * @param heldMicros the live holds of the limit's organization, project or sandbox, in micro-USD
 */
public record HeldSpend(SpendLimit limit, long heldMicros) {

    /** Amounts are never negative: a negative spend or hold would hand out budget that does not exist. */
    public HeldSpend {
        Objects.requireNonNull(limit, "limit");
        if (heldMicros < 0) {
            throw new IllegalArgumentException("held amount must not be negative, was " + heldMicros);
        }
        if (limit.limitMicros() < 0 || limit.spentMicros() < 0) {
            throw new IllegalArgumentException("a limit's amount and spend must not be negative, were "
                    + limit.limitMicros() + " and " + limit.spentMicros());
        }
    }
}
