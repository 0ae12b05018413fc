package dev.stockade.policy.impact;

import java.time.Duration;

/**
 * The bounds of one replay, explicit per call rather than static: how long a window, how many entries, how many
 * groups the report lists for each change (counts stay exact beyond it).
 *
 * @param maxWindow  the longest window of the trail one replay reads
 * @param maxEntries the most entries one replay decides; one more is refused, never silently dropped
 * @param maxGroups  the most groups listed per change; entries of further groups are counted in
 *                   {@code unlistedEntries}
 */
public record ImpactLimits(Duration maxWindow, long maxEntries, int maxGroups) {
    /** Seven days, 1,000,000 entries, 1,000 groups per change. */
    public static ImpactLimits defaults() {
        return new ImpactLimits(Duration.ofDays(7), 1_000_000, 1_000);
    }

    public ImpactLimits {
        if (maxWindow.isNegative() || maxWindow.isZero() || maxEntries < 1 || maxGroups < 1) {
            throw new IllegalArgumentException("impact limits must be positive");
        }
    }
}
