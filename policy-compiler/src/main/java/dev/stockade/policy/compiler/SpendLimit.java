package dev.stockade.policy.compiler;

import java.time.Instant;
import java.util.Objects;

/**
 * One spending limit that applies to a call, with the spend the host's ledger counted against it in the period that
 * holds the call: the state the admission rule ({@link SpendDecision#judge}) is a function of.
 *
 * @param scope       what the limit caps
 * @param period      the period it counts over
 * @param limitMicros the cap in micro-USD (zero allows no metered call)
 * @param spentMicros metered, priced spend of the scope since {@code periodStart}
 * @param periodStart the start of the period that holds the call
 */
public record SpendLimit(SpendScope scope, SpendPeriod period, long limitMicros, long spentMicros,
                         Instant periodStart) {

    /** Requires scope, period and period start: a limit without them cannot be judged. */
    public SpendLimit {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(periodStart, "periodStart");
    }

    /** Reaching the limit stops model access: spend equal to the cap is reached, so a zero cap allows nothing. */
    public boolean reached() {
        return spentMicros >= limitMicros;
    }

    /** What is left before the limit is reached; never negative. */
    public long remainingMicros() {
        return Math.max(0, limitMicros - spentMicros);
    }

    /** When the period ends and the limit admits calls again (exclusive). */
    public Instant periodEnd() {
        return period.end(periodStart);
    }
}
