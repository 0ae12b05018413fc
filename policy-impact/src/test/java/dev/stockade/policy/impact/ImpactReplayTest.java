package dev.stockade.policy.impact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fixture trail (17 entries of one sandbox, written by hand in the export's shape) replayed under the policy that
 * recorded it, a narrowed and a widened candidate; every expectation below is worked out from the policies by hand.
 */
class ImpactReplayTest {
    private static final String CONNECTOR = "0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10";
    private static final List<RecordedDecision> TRAIL = Fixtures.trail();

    private static ImpactReport replay(String candidate) {
        return ImpactReplay.replay(CandidateSource.everywhere(Fixtures.candidate(candidate)), ImpactLimits.defaults(),
                TRAIL);
    }

    @Test
    void thePolicyInForceChangesNothing() {
        ImpactReport r = replay("current.yaml");
        assertThat(r.entries()).isEqualTo(17);
        assertThat(r.unchanged()).isEqualTo(11);
        assertThat(r.newlyDenied()).isZero();
        assertThat(r.newlyAllowed()).isZero();
        assertThat(r.breaking()).isFalse();
        assertThat(r.notReplayable()).isEqualTo(6);
        assertThat(r.notReplayableBy()).extracting(ImpactReport.NotReplayableCount::reason,
                ImpactReport.NotReplayableCount::count).containsExactly(
                tuple(NotReplayable.MISSING_FIELDS, 1L), tuple(NotReplayable.NOT_A_POLICY_DECISION, 2L),
                tuple(NotReplayable.PLATFORM_TOOL, 1L), tuple(NotReplayable.TOOL_NOT_IDENTIFIED, 1L),
                tuple(NotReplayable.UNKNOWN_KIND, 1L));
        assertThat(r.firstSeen()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z"));
        assertThat(r.lastSeen()).isEqualTo(Instant.parse("2026-11-20T10:16:00Z"));
    }

    @Test
    void aNarrowedCandidateBreaksWhatItNoLongerAllows() {
        ImpactReport r = replay("narrowed.yaml");
        assertThat(r.breaking()).isTrue();
        assertThat(r.newlyDenied()).isEqualTo(4);
        assertThat(r.newlyAllowed()).isZero();
        assertThat(r.unchanged()).isEqualTo(7);
        assertThat(r.deniedGroups()).extracting(ImpactGroup::kind, ImpactGroup::target, ImpactGroup::operation,
                ImpactGroup::recordedReason, ImpactGroup::candidateReason).containsExactlyInAnyOrder(
                tuple(EntryKind.EGRESS, "api.github.com:443", "POST /repos/acme/app/pulls", "rule-allow",
                        "no-rule-matched"),
                tuple(EntryKind.EGRESS, "pypi.org:443", "(connection)", "entry-allow", "default-deny"),
                tuple(EntryKind.EGRESS, "mirror.example.com:80", "GET /simple/", "entry-allow",
                        "caller-not-listed"),
                tuple(EntryKind.TOOL_CALL, CONNECTOR, "create_issue", "tool-called", "tool-not-granted"));
        assertThat(r.deniedGroups()).filteredOn(g -> g.kind() == EntryKind.EGRESS)
                .allSatisfy(g -> assertThat(g.sandbox()).isEqualTo("build-1"));
    }

    @Test
    void aWidenedCandidateOpensWhatWasDeniedAndBreaksNothing() {
        ImpactReport r = replay("widened.yaml");
        assertThat(r.breaking()).isFalse();
        assertThat(r.newlyAllowed()).isEqualTo(2);
        assertThat(r.unchanged()).isEqualTo(8);
        assertThat(r.allowedGroups()).extracting(ImpactGroup::target, ImpactGroup::operation,
                ImpactGroup::candidateReason, ImpactGroup::candidatePolicy).containsExactlyInAnyOrder(
                tuple("api.github.com:443", "DELETE /repos/acme/app", "rule-allow", "agent"),
                tuple("evil.example.net:443", "(connection)", "entry-allow", "agent"));
        // the /graphql request now meets a graphql rule, and the trail keeps no operation to judge
        assertThat(r.notReplayableBy()).contains(
                new ImpactReport.NotReplayableCount(NotReplayable.GRAPHQL_NOT_RECORDED, 1));
    }

    @Test
    void aGroupCountsItsEntriesWithFirstAndLastSeen() {
        RecordedDecision.Egress a = egress("2026-11-20T10:00:00Z", "POST", "/");
        RecordedDecision.Egress b = egress("2026-11-21T09:00:00Z", "POST", "/");
        RecordedDecision.Egress c = egress("2026-11-20T12:00:00Z", "POST", "/");
        ImpactReport r = ImpactReplay.replay(CandidateSource.everywhere(Fixtures.candidate("narrowed.yaml")),
                ImpactLimits.defaults(), List.of(
                        retarget(a, "/repos/acme/app/pulls"), retarget(b, "/repos/acme/app/pulls"),
                        retarget(c, "/repos/acme/app/pulls")));
        assertThat(r.deniedGroups()).singleElement().satisfies(g -> {
            assertThat(g.count()).isEqualTo(3);
            assertThat(g.firstSeen()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z"));
            assertThat(g.lastSeen()).isEqualTo(Instant.parse("2026-11-21T09:00:00Z"));
        });
    }

    @Test
    void groupsBeyondTheCapAreCountedNotListed() {
        ImpactLimits limits = new ImpactLimits(Duration.ofDays(1), 100, 2);
        ImpactReplay replay = new ImpactReplay(CandidateSource.everywhere(Fixtures.candidate("narrowed.yaml")),
                limits);
        // five groups r0..r4, then one more entry of a listed group (r0) and two of an unlisted one (r3)
        for (int i : new int[] {0, 1, 2, 3, 4, 0, 3, 3}) {
            replay.add(retarget(egress("2026-11-20T10:00:00Z", "POST", "x"), "/repos/acme/r" + i + "/pulls"));
        }
        ImpactReport r = replay.report();
        assertThat(r.newlyDenied()).isEqualTo(8);
        assertThat(r.deniedGroups()).extracting(ImpactGroup::operation, ImpactGroup::count).containsExactly(
                tuple("POST /repos/acme/r0/pulls", 2L), tuple("POST /repos/acme/r1/pulls", 1L));
        assertThat(r.unlistedEntries()).isEqualTo(5);
    }

    @Test
    void oneEntryPastTheCapIsRefused() {
        ImpactReplay replay = new ImpactReplay(CandidateSource.everywhere(Fixtures.candidate("current.yaml")),
                new ImpactLimits(Duration.ofDays(1), 3, 10));
        for (int i = 0; i < 3; i++) {
            replay.add(TRAIL.get(i));
        }
        assertThatThrownBy(() -> replay.add(TRAIL.get(3))).isInstanceOf(ReplayCapExceeded.class)
                .hasMessageContaining("more than 3 entries");
    }

    @Test
    void aSandboxWithoutACandidateIsNotReplayable() {
        ImpactReport r = ImpactReplay.replay(sandbox -> java.util.Optional.empty(), ImpactLimits.defaults(),
                List.of(egress("2026-11-20T10:00:00Z", "GET", "/repos/acme/app/issues")));
        assertThat(r.notReplayableBy()).containsExactly(
                new ImpactReport.NotReplayableCount(NotReplayable.NO_CANDIDATE, 1));
    }

    private static RecordedDecision.Egress egress(String at, String method, String path) {
        return new RecordedDecision.Egress(Instant.parse(at), "build-1", EgressListener.INTERCEPTED,
                "api.github.com", 443, method, path, "/usr/bin/gh", dev.stockade.policy.model.Verdict.ALLOW,
                "rule-allow");
    }

    private static RecordedDecision.Egress retarget(RecordedDecision.Egress e, String path) {
        return new RecordedDecision.Egress(e.at(), e.sandbox(), e.listener(), e.host(), e.port(), "POST", path,
                e.caller(), e.recorded(), e.reason());
    }
}
