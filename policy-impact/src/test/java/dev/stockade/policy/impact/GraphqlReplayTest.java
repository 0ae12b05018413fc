package dev.stockade.policy.impact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GraphQL rules of a candidate replayed from the operations the proxy recorded, case by case: every expected verdict
 * and reason below is worked out by hand from the candidate and the recorded operation (docs/graphql-fence.md, "How
 * an operation is judged"; docs/policy-impact.md, "What is replayable").
 */
class GraphqlReplayTest {
    private static final String HEAD = """
            name: agent
            networkDefaultVerdict: deny
            allowedDomains:
              - pattern: api.github.com
                verdict: allow
                transport: upstream
                scheme: https
                rules:
            """;
    /** Reads: named Get* queries of viewer and repository, repository pinned to acme. */
    private static final String PINNED = HEAD + """
                  - method: POST
                    path: /graphql
                    graphql:
                      operationType: query
                      operationName: "Get*"
                      fields: [viewer, repository]
                      arguments:
                        - {field: repository, pointer: /owner, glob: acme}
            """;
    /** Queries of viewer only, with a plain POST /graphql rule beside it (spec rule 6: it must not bypass the fence). */
    private static final String VIEWER_ONLY = HEAD + """
                  - {method: POST, path: /graphql}
                  - method: POST
                    path: /graphql
                    graphql: {operationType: query, fields: [viewer]}
                  - method: GET
                    path: /graphql
                    graphql: {operationType: query, fields: [viewer]}
            """;
    /** Any operation of any type: nothing but the type is fenced, introspection included. */
    private static final String ANYTHING = HEAD + """
                  - method: POST
                    path: /graphql
                    graphql: {operationType: "*"}
            """;
    /** No graphql rule at all: the recorded operations are not needed. */
    private static final String PLAIN = HEAD + """
                  - {method: POST, path: /graphql}
            """;

    private static Candidate candidate(String yaml) {
        ReadResult read = PolicyReader.read("candidate.yaml", yaml);
        assertThat(read.problems()).isEmpty();
        return Candidate.of(Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(read.policy())));
    }

    private static GraphqlSummary.Operation op(OperationType type, String name, String... fields) {
        return new GraphqlSummary.Operation(0, type, name, List.of(fields));
    }

    private static RecordedDecision.Egress recorded(String method, Verdict verdict, GraphqlSummary summary) {
        return new RecordedDecision.Egress(Instant.parse("2026-11-20T10:00:00Z"), "sb", EgressListener.INTERCEPTED,
                "api.github.com", 443, method, "/graphql", "/usr/bin/gh", verdict,
                verdict == Verdict.ALLOW ? "rule-allow" : "graphql-field-denied", summary);
    }

    private static RecordedDecision.Egress allowed(GraphqlSummary.Operation... operations) {
        return recorded("POST", Verdict.ALLOW, new GraphqlSummary(List.of(operations), false));
    }

    private static Redecision again(String candidate, RecordedDecision.Egress e) {
        return Redecision.of(e, candidate(candidate));
    }

    private static void decided(Redecision r, Verdict verdict, String reason) {
        assertThat(r).isInstanceOfSatisfying(Redecision.Decided.class, d -> {
            assertThat(d.verdict()).isEqualTo(verdict);
            assertThat(d.reason()).isEqualTo(reason);
        });
    }

    @Test
    void theTypeNameAndRootFieldsAreJudgedAsTheFenceJudgesThem() {
        decided(again(PINNED, allowed(op(OperationType.QUERY, "GetViewer", "viewer"))), Verdict.ALLOW, "rule-allow");
        decided(again(PINNED, allowed(op(OperationType.QUERY, null, "viewer"))), Verdict.DENY,
                "graphql-name-denied");
        decided(again(PINNED, allowed(op(OperationType.QUERY, "ListOrgs", "viewer"))), Verdict.DENY,
                "graphql-name-denied");
        decided(again(PINNED, allowed(op(OperationType.MUTATION, "GetX", "viewer"))), Verdict.DENY,
                "graphql-operation-denied");
        decided(again(PINNED, allowed(op(OperationType.QUERY, "GetOrg", "viewer", "organization"))), Verdict.DENY,
                "graphql-field-denied");
        // introspection: denied once fields are listed, admitted by a fence without them
        decided(again(VIEWER_ONLY, allowed(op(OperationType.QUERY, null, "__schema"))), Verdict.DENY,
                "graphql-field-denied");
        decided(again(ANYTHING, allowed(op(OperationType.QUERY, null, "__schema"))), Verdict.ALLOW, "rule-allow");
        decided(again(VIEWER_ONLY, allowed(op(OperationType.QUERY, null, "viewer", "__typename"))), Verdict.ALLOW,
                "rule-allow");
    }

    @Test
    void everyOperationOfEveryBatchElementMustPass() {
        GraphqlSummary batch = new GraphqlSummary(List.of(op(OperationType.QUERY, null, "viewer"),
                new GraphqlSummary.Operation(1, OperationType.MUTATION, "Drop", List.of("deleteRepository"))), false);
        decided(again(VIEWER_ONLY, recorded("POST", Verdict.ALLOW, batch)), Verdict.DENY, "graphql-operation-denied");
        decided(again(ANYTHING, recorded("POST", Verdict.ALLOW, batch)), Verdict.ALLOW, "rule-allow");
    }

    @Test
    void aPlainRuleBesideAGraphqlRuleDoesNotAdmitWhatTheFenceRefuses() {
        decided(again(VIEWER_ONLY, allowed(op(OperationType.MUTATION, null, "createIssue"))), Verdict.DENY,
                "graphql-operation-denied");
        decided(again(PLAIN, allowed(op(OperationType.MUTATION, null, "createIssue"))), Verdict.ALLOW, "rule-allow");
    }

    @Test
    void aGetRequestIsReplayedThroughItsUrlParameters() {
        GraphqlSummary viewer = new GraphqlSummary(List.of(op(OperationType.QUERY, null, "viewer")), false);
        GraphqlSummary org = new GraphqlSummary(List.of(op(OperationType.QUERY, null, "organization")), false);
        decided(again(VIEWER_ONLY, recorded("GET", Verdict.ALLOW, viewer)), Verdict.ALLOW, "rule-allow");
        decided(again(VIEWER_ONLY, recorded("GET", Verdict.ALLOW, org)), Verdict.DENY, "graphql-field-denied");
    }

    @Test
    void anArgumentConditionDecidesOnlyWhenItsFieldIsUsedAndThenTheEntryIsNotReplayable() {
        // repository is used: /owner decides, and no argument was recorded
        assertThat(again(PINNED, allowed(op(OperationType.QUERY, "GetRepo", "repository"))))
                .isEqualTo(new Redecision.Skipped(NotReplayable.GRAPHQL_ARGUMENTS_NOT_RECORDED));
        // a field outside the list denies whatever the arguments: exact
        decided(again(PINNED, allowed(op(OperationType.QUERY, "GetRepo", "repository", "organization"))),
                Verdict.DENY, "graphql-field-denied");
        // an unnamed operation is denied by the name glob before any argument is looked at: exact
        decided(again(PINNED, allowed(op(OperationType.QUERY, null, "repository"))), Verdict.DENY,
                "graphql-name-denied");
    }

    @Test
    void withoutACompleteSummaryNothingIsGuessedAndWithoutAGraphqlRuleNoneIsNeeded() {
        assertThat(again(VIEWER_ONLY, recorded("POST", Verdict.ALLOW, null)))
                .isEqualTo(new Redecision.Skipped(NotReplayable.GRAPHQL_NOT_RECORDED));
        assertThat(again(VIEWER_ONLY, recorded("POST", Verdict.ALLOW, new GraphqlSummary(List.of(), true))))
                .isEqualTo(new Redecision.Skipped(NotReplayable.GRAPHQL_SUMMARY_TRUNCATED));
        decided(again(PLAIN, recorded("POST", Verdict.ALLOW, null)), Verdict.ALLOW, "rule-allow");
    }

    @Test
    void aReportCountsTheChangesAndTheNewReasons() {
        List<RecordedDecision> trail = new ArrayList<>();
        trail.add(allowed(op(OperationType.QUERY, null, "viewer")));
        trail.add(allowed(op(OperationType.QUERY, null, "viewer", "organization")));
        trail.add(recorded("POST", Verdict.DENY, new GraphqlSummary(List.of(op(OperationType.MUTATION, null,
                "createIssue")), false)));
        trail.add(recorded("POST", Verdict.ALLOW, null));
        ImpactReport narrowed = ImpactReplay.replay(CandidateSource.everywhere(candidate(VIEWER_ONLY)),
                ImpactLimits.defaults(), trail);
        assertThat(narrowed.unchanged()).isEqualTo(2);
        assertThat(narrowed.newlyDenied()).isEqualTo(1);
        assertThat(narrowed.deniedGroups()).singleElement().satisfies(g -> {
            assertThat(g.operation()).isEqualTo("POST /graphql");
            assertThat(g.candidateReason()).isEqualTo("graphql-field-denied");
        });
        assertThat(narrowed.notReplayableBy()).containsExactly(
                new ImpactReport.NotReplayableCount(NotReplayable.GRAPHQL_NOT_RECORDED, 1));
        ImpactReport widened = ImpactReplay.replay(CandidateSource.everywhere(candidate(ANYTHING)),
                ImpactLimits.defaults(), trail);
        assertThat(widened.newlyAllowed()).isEqualTo(1);
        assertThat(widened.unchanged()).isEqualTo(2);
        assertThat(widened.newlyDenied()).isZero();
    }
}
