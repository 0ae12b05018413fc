package dev.stockade.api.spend;

import dev.stockade.policy.compiler.SpendLimit;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.compiler.SpendScope;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.UUID;

/**
 * One stored spending limit and the spend counted against it in its current period; what the core judges of it is
 * {@link #limit()}.
 *
 * @param scope       {@code org}, {@code project} or {@code sandbox}
 * @param spentMicros metered, priced spend of the scope since {@code periodStart}
 */
public record LimitState(String scope, UUID orgId, @Nullable UUID projectId, @Nullable UUID sandboxId,
                         SpendPeriod period, long limitMicros, long spentMicros, Instant periodStart,
                         Instant updatedAt, String updatedBy) {

    /** The limit as the core's admission rule sees it; a scope the database cannot hold fails loudly. */
    public SpendLimit limit() {
        SpendScope s = SpendScope.of(scope).orElseThrow(() -> new IllegalStateException("unknown limit scope"));
        return new SpendLimit(s, period, limitMicros, spentMicros, periodStart);
    }

    /** Reaching the limit stops model access ({@link SpendLimit#reached}). */
    public boolean exceeded() {
        return limit().reached();
    }

    public long remainingMicros() {
        return limit().remainingMicros();
    }

    public Instant periodEnd() {
        return limit().periodEnd();
    }
}
