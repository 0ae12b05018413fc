package dev.stockade.api.spend;

import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.UUID;

/**
 * One spending limit and the spend counted against it in its current period.
 *
 * @param scope       {@code org}, {@code project} or {@code sandbox}
 * @param spentMicros metered, priced spend of the scope since {@code periodStart}
 */
public record LimitState(String scope, UUID orgId, @Nullable UUID projectId, @Nullable UUID sandboxId,
                         SpendPeriod period, long limitMicros, long spentMicros, Instant periodStart,
                         Instant updatedAt, String updatedBy) {

    /** Reaching the limit stops model access: a limit of zero allows no metered call at all. */
    public boolean exceeded() {
        return spentMicros >= limitMicros;
    }

    public long remainingMicros() {
        return Math.max(0, limitMicros - spentMicros);
    }

    public Instant periodEnd() {
        return period.end(periodStart);
    }
}
