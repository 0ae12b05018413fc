package dev.stockade.policy.impact;

import dev.stockade.policy.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replays a window of the trail under a candidate: entries arrive one at a time (a host streams its pages through
 * {@link #add}), each is re-decided by the same core that decided it, and {@link #report} says what changes. Memory
 * is bounded by the group cap, not the window; one entry past the entry cap is refused ({@link ReplayCapExceeded}).
 * Not thread-safe: one replay, one thread.
 */
public final class ImpactReplay {
    private record GroupKey(EntryKind kind, String sandbox, String target, String operation) {
    }

    private static final class Tally {
        private final ImpactGroup first;
        private long count;
        private Instant firstSeen;
        private Instant lastSeen;

        Tally(ImpactGroup first) {
            this.first = first;
        }

        void see(Instant at) {
            count++;
            firstSeen = firstSeen == null || at.isBefore(firstSeen) ? at : firstSeen;
            lastSeen = lastSeen == null || at.isAfter(lastSeen) ? at : lastSeen;
        }

        ImpactGroup group() {
            return new ImpactGroup(first.change(), first.kind(), first.sandbox(), first.target(), first.operation(),
                    count, firstSeen, lastSeen, first.recordedReason(), first.candidateReason(),
                    first.candidatePolicy(), first.candidateEntry());
        }
    }

    private final CandidateSource candidates;
    private final ImpactLimits limits;
    private final Map<GroupKey, Tally> denied = new LinkedHashMap<>();
    private final Map<GroupKey, Tally> allowed = new LinkedHashMap<>();
    private final Map<NotReplayable, Long> skipped = new EnumMap<>(NotReplayable.class);
    private long entries;
    private long newlyDenied;
    private long newlyAllowed;
    private long unchanged;
    private long notReplayable;
    private long unlisted;
    private Instant firstSeen;
    private Instant lastSeen;

    public ImpactReplay(CandidateSource candidates, ImpactLimits limits) {
        this.candidates = candidates;
        this.limits = limits;
    }

    /** Replays every entry of {@code trail} and reports. */
    public static ImpactReport replay(CandidateSource candidates, ImpactLimits limits,
            Iterable<? extends RecordedDecision> trail) {
        ImpactReplay replay = new ImpactReplay(candidates, limits);
        trail.forEach(replay::add);
        return replay.report();
    }

    /** Re-decides one entry and counts it; throws {@link ReplayCapExceeded} past the entry cap. */
    public void add(RecordedDecision recorded) {
        if (entries == limits.maxEntries()) {
            throw new ReplayCapExceeded(limits.maxEntries());
        }
        entries++;
        see(recorded.at());
        Redecision again = redecide(recorded);
        if (again instanceof Redecision.Skipped s) {
            notReplayable++;
            skipped.merge(s.why(), 1L, Long::sum);
            return;
        }
        Redecision.Decided d = (Redecision.Decided) again;
        Verdict before = recorded instanceof RecordedDecision.Egress e ? e.recorded()
                : ((RecordedDecision.ToolCall) recorded).recorded();
        if (before == d.verdict()) {
            unchanged++;
        } else if (before == Verdict.ALLOW) {
            newlyDenied++;
            tally(denied, Change.NEWLY_DENIED, recorded, d);
        } else {
            newlyAllowed++;
            tally(allowed, Change.NEWLY_ALLOWED, recorded, d);
        }
    }

    private Redecision redecide(RecordedDecision recorded) {
        if (recorded instanceof RecordedDecision.Unreplayable u) {
            return new Redecision.Skipped(u.why());
        }
        Optional<Candidate> candidate = candidates.forSandbox(recorded.sandbox());
        return candidate.isEmpty() ? new Redecision.Skipped(NotReplayable.NO_CANDIDATE)
                : Redecision.of(recorded, candidate.get());
    }

    /** The report of every entry added so far. */
    public ImpactReport report() {
        List<ImpactReport.NotReplayableCount> reasons = new ArrayList<>();
        skipped.forEach((why, n) -> reasons.add(new ImpactReport.NotReplayableCount(why, n)));
        return new ImpactReport(entries, newlyDenied, newlyAllowed, unchanged, notReplayable, firstSeen, lastSeen,
                sorted(denied), sorted(allowed), reasons, unlisted);
    }

    private void see(Instant at) {
        if (at != null) {
            firstSeen = firstSeen == null || at.isBefore(firstSeen) ? at : firstSeen;
            lastSeen = lastSeen == null || at.isAfter(lastSeen) ? at : lastSeen;
        }
    }

    private void tally(Map<GroupKey, Tally> groups, Change change, RecordedDecision r, Redecision.Decided d) {
        GroupKey key = key(r);
        Tally tally = groups.get(key);
        if (tally == null) {
            if (groups.size() == limits.maxGroups()) {
                unlisted++; // an entry of a group past the cap: counted, its group not listed
                return;
            }
            String recordedReason = r instanceof RecordedDecision.Egress e ? e.reason() : "tool-called";
            tally = new Tally(new ImpactGroup(change, key.kind(), key.sandbox(), key.target(), key.operation(), 0,
                    null, null, recordedReason, d.reason(), d.policy(), d.entry()));
            groups.put(key, tally);
        }
        tally.see(r.at());
    }

    private static GroupKey key(RecordedDecision r) {
        if (r instanceof RecordedDecision.Egress e) {
            String host = e.host().indexOf(':') >= 0 ? "[" + e.host() + "]" : e.host();
            String operation = e.method() == null ? "(connection)" : e.method() + " " + e.path();
            return new GroupKey(EntryKind.EGRESS, e.sandbox(), host + ":" + e.port(), operation);
        }
        RecordedDecision.ToolCall t = (RecordedDecision.ToolCall) r;
        return new GroupKey(EntryKind.TOOL_CALL, t.sandbox(), t.connectorId(), t.upstreamTool());
    }

    private static List<ImpactGroup> sorted(Map<GroupKey, Tally> groups) {
        return groups.values().stream().map(Tally::group)
                .sorted(Comparator.comparingLong(ImpactGroup::count).reversed()
                        .thenComparing(ImpactGroup::sandbox, Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(ImpactGroup::target).thenComparing(ImpactGroup::operation))
                .toList();
    }
}
