package dev.stockade.policy.impact;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.Verdict;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One recorded decision made again under a candidate, or why it cannot be: the request is rebuilt as the proxy built
 * it from what the entry recorded, and nothing the entry lacks is filled in.
 */
sealed interface Redecision {
    /** The core reasons that report the platform's state or the request's shape, not what the policy says. */
    Set<ReasonCode> STATE_REASONS = EnumSet.of(ReasonCode.HALTED, ReasonCode.POLICY_UNAVAILABLE,
            ReasonCode.INTERNAL_ERROR, ReasonCode.INVALID_REQUEST);

    /** The candidate's verdict with what decided it. */
    record Decided(Verdict verdict, String reason, String policy, int entry) implements Redecision {
    }

    /** Not re-decided, and why. */
    record Skipped(NotReplayable why) implements Redecision {
    }

    /** The candidate's answer to {@code recorded}. */
    static Redecision of(RecordedDecision recorded, Candidate candidate) {
        if (recorded instanceof RecordedDecision.Egress e) {
            return egress(e, candidate);
        }
        if (recorded instanceof RecordedDecision.ToolCall t) {
            boolean granted = candidate.grantsTool(t.connectorId(), t.upstreamTool());
            return new Decided(granted ? Verdict.ALLOW : Verdict.DENY, granted ? "tool-granted" : "tool-not-granted",
                    null, -1);
        }
        return new Skipped(((RecordedDecision.Unreplayable) recorded).why());
    }

    private static Redecision egress(RecordedDecision.Egress e, Candidate candidate) {
        DecisionProgram program = candidate.program();
        ReasonCode recordedReason = e.reason() == null ? null : ReasonCode.fromCode(e.reason());
        if (recordedReason == null || STATE_REASONS.contains(recordedReason)) {
            return new Skipped(NotReplayable.NOT_A_POLICY_DECISION);
        }
        EgressListener l = e.listener();
        EgressRequest request = l.requestLevel()
                ? new EgressRequest(l.scheme(), e.host(), e.port(), null, e.caller(), e.method(), e.path(), null,
                        Map.of(), null, false)
                : EgressRequest.connection(l.scheme(), e.host(), e.port(), l.sniIsHost() ? e.host() : null,
                        e.caller());
        if (l.requestLevel() && program.graphqlFenced(request)) {
            return graphql(e, request, candidate);
        }
        Decision d = l.requestLevel() ? program.decide(request) : program.decideConnection(request);
        return new Decided(d.verdict(), d.reason().code(), d.policy(), d.entryIndex());
    }

    /**
     * A request a graphql rule of the candidate judges, re-decided from the recorded operations: the request is
     * rebuilt with them and no arguments, and decided by the candidate and by the candidate without argument
     * conditions. Conditions only ever deny, so the real verdict lies between the two; when they differ, an
     * argument nobody recorded decides it. Without a complete summary nothing is guessed.
     */
    private static Redecision graphql(RecordedDecision.Egress e, EgressRequest plain, Candidate candidate) {
        GraphqlSummary summary = e.graphql();
        if (summary != null && summary.truncated()) {
            return new Skipped(NotReplayable.GRAPHQL_SUMMARY_TRUNCATED);
        }
        GraphqlSummary.ReplayRequest body = summary == null ? null : summary.replayRequest(e.method()).orElse(null);
        if (body == null) {
            return new Skipped(NotReplayable.GRAPHQL_NOT_RECORDED);
        }
        EgressRequest rebuilt = new EgressRequest(plain.scheme(), plain.host(), plain.port(), null, plain.caller(),
                plain.method(), plain.path(), body.urlQuery(), body.contentType() == null ? Map.of()
                        : Map.of("content-type", List.of(body.contentType())), body.body(), false);
        Decision strict = candidate.program().decide(rebuilt);
        Decision free = candidate.withoutArguments().decide(rebuilt);
        if (strict.verdict() != free.verdict()) {
            return new Skipped(NotReplayable.GRAPHQL_ARGUMENTS_NOT_RECORDED);
        }
        return new Decided(strict.verdict(), strict.reason().code(), strict.policy(), strict.entryIndex());
    }
}
