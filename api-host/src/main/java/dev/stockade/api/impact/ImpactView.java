package dev.stockade.api.impact;

import dev.stockade.policy.impact.ImpactGroup;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.ImpactReport;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;

/**
 * A policy-impact answer: the window replayed, the core's report (counts, groups newly denied and newly allowed, what
 * was not replayable and why) and the caps it ran under. The same shape as {@code stockade policy impact --format
 * json} adds {@code since}, {@code until} and {@code limits} to.
 */
@Introspected
public record ImpactView(Instant since, Instant until, long entries, long newlyDenied, long newlyAllowed,
                         long unchanged, long notReplayable, boolean breaking, @Nullable Instant firstSeen,
                         @Nullable Instant lastSeen, List<Group> deniedGroups, List<Group> allowedGroups,
                         List<Skipped> notReplayableBy, long unlistedEntries, Limits limits) {

    /** Recorded decisions changed the same way on one sandbox, target and operation. */
    @Introspected
    public record Group(String change, String kind, @Nullable String sandbox, String target, String operation,
                        long count, Instant firstSeen, Instant lastSeen, @Nullable String recordedReason,
                        String candidateReason, @Nullable String candidatePolicy, int candidateEntry) {
        static Group of(ImpactGroup g) {
            return new Group(g.change().code(), g.kind().slug(), g.sandbox(), g.target(), g.operation(), g.count(),
                    g.firstSeen(), g.lastSeen(), g.recordedReason(), g.candidateReason(), g.candidatePolicy(),
                    g.candidateEntry());
        }
    }

    /** Entries not replayed for one reason. */
    @Introspected
    public record Skipped(String reason, long count, String detail) {
    }

    /** The caps of one replay. */
    @Introspected
    public record Limits(long maxWindowDays, long maxEntries, int maxGroups) {
    }

    static ImpactView of(Instant since, Instant until, ImpactReport r, ImpactLimits limits) {
        return new ImpactView(since, until, r.entries(), r.newlyDenied(), r.newlyAllowed(), r.unchanged(),
                r.notReplayable(), r.breaking(), r.firstSeen(), r.lastSeen(),
                r.deniedGroups().stream().map(Group::of).toList(), r.allowedGroups().stream().map(Group::of).toList(),
                r.notReplayableBy().stream().map(c -> new Skipped(c.reason().code(), c.count(), c.reason().detail()))
                        .toList(), r.unlistedEntries(),
                new Limits(limits.maxWindow().toDays(), limits.maxEntries(), limits.maxGroups()));
    }
}
