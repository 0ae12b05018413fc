package dev.stockade.policy.impact;

import java.time.Instant;
import java.util.List;

/**
 * What a candidate changes in a window of the trail: exact counts of every outcome, the groups newly denied and
 * newly allowed (most entries first), and the entries that could not be replayed, by reason.
 *
 * @param entries          entries read
 * @param newlyDenied      recorded allowed, denied under the candidate
 * @param newlyAllowed     recorded denied, allowed under the candidate
 * @param unchanged        same verdict as recorded
 * @param notReplayable    entries that could not be re-decided
 * @param firstSeen        the earliest entry's time, {@code null} for an empty window
 * @param lastSeen         the latest entry's time, {@code null} for an empty window
 * @param deniedGroups     newly denied, grouped
 * @param allowedGroups    newly allowed, grouped
 * @param notReplayableBy  entries not replayed, per reason (only reasons that occurred)
 * @param unlistedEntries  changed entries whose group is beyond the listing cap (they are in the counts)
 */
public record ImpactReport(long entries, long newlyDenied, long newlyAllowed, long unchanged, long notReplayable,
        Instant firstSeen, Instant lastSeen, List<ImpactGroup> deniedGroups, List<ImpactGroup> allowedGroups,
        List<NotReplayableCount> notReplayableBy, long unlistedEntries) {
    public ImpactReport {
        deniedGroups = List.copyOf(deniedGroups);
        allowedGroups = List.copyOf(allowedGroups);
        notReplayableBy = List.copyOf(notReplayableBy);
    }

    /** Whether something recorded as allowed would be denied: what CI fails on. */
    public boolean breaking() {
        return newlyDenied > 0;
    }

    /** How many entries were not replayed for one reason. */
    public record NotReplayableCount(NotReplayable reason, long count) {
    }
}
