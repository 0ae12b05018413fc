package dev.stockade.policy.impact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.graphql.GraphqlDocumentCache;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlLimits;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.graphql.GraphqlSummaryReader;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Replay from recorded operations against the real request (QuickTheories, fixed seed): a GraphQL request is decided
 * under a recording policy and recorded as the proxy records it (its operations when a fence read them), then
 * re-decided from the record under a random candidate. Whenever replay decides, its verdict is the one the candidate
 * gives the real request, arguments and all; it declines only for a missing record or an argument condition.
 */
class GraphqlReplayPropertiesTest {
    private static final long SEED = 0x6A9C5L;
    private static final GraphqlSummaryReader READER = GraphqlSummaryReader.of(GraphqlLimits.defaults(),
            GraphqlDocumentCache.bounded(1 << 20));
    private static final Set<ReasonCode> JUDGED_DENIES = EnumSet.of(ReasonCode.GRAPHQL_OPERATION_DENIED,
            ReasonCode.GRAPHQL_NAME_DENIED, ReasonCode.GRAPHQL_FIELD_DENIED, ReasonCode.GRAPHQL_ARGUMENT_DENIED);
    /** JSON bodies: names, aliases, fragments, batches, arguments literal and by variable, introspection. */
    private static final List<String> BODIES = List.of(
            "{\"query\":\"{ viewer { login } }\"}",
            "{\"query\":\"query GetRepo { repository(owner: \\\"acme\\\") { id } }\"}",
            "{\"query\":\"query GetRepo { repository(owner: \\\"evil\\\") { id } viewer { id } }\"}",
            "{\"query\":\"query GetRepo($o: String) { r: repository(owner: $o) { id } }\",\"variables\":{\"o\":\"acme\"}}",
            "{\"query\":\"query ListAll { ...F } fragment F on Query { repository(owner: \\\"acme\\\") { id } }\"}",
            "{\"query\":\"mutation { createIssue(input: {}) { id } }\"}",
            "{\"query\":\"mutation Drop { deleteRepository { id } }\"}",
            "{\"query\":\"{ __schema { types { name } } }\"}",
            "{\"query\":\"subscription S { issueUpdated { id } }\"}",
            "[{\"query\":\"{ viewer { id } }\"},{\"query\":\"mutation { createIssue { id } }\"}]",
            "{\"query\":\"query A { viewer } query B { repository(owner: \\\"acme\\\") { id } }\",\"operationName\":\"B\"}");

    private static Gen<GraphqlFence> fences() {
        Gen<OperationType> type = arbitrary().pick(OperationType.QUERY, OperationType.QUERY, OperationType.MUTATION,
                OperationType.ANY, OperationType.SUBSCRIPTION);
        Gen<String> name = arbitrary().pick(null, null, "Get*", "*");
        Gen<Integer> shape = arbitrary().pick(0, 1, 2, 3, 4, 5);
        return type.zip(name, shape, (t, n, s) -> switch (s) {
            case 0 -> new GraphqlFence(t, n, null, null);
            case 1 -> new GraphqlFence(t, n, List.of("viewer"), null);
            case 2 -> new GraphqlFence(t, n, List.of("viewer", "repository"), null);
            case 3 -> new GraphqlFence(t, n, List.of("createIssue", "viewer"), null);
            case 4 -> new GraphqlFence(t, n, List.of("*"), null);
            default -> new GraphqlFence(t, n, List.of("viewer", "repository"),
                    List.of(new ArgumentCondition("repository", "/owner", "acme")));
        });
    }

    private static Gen<Policy> policies() {
        Gen<Rule> rule = fences().zip(arbitrary().pick(true, false, false, false), (f, plain) -> plain
                ? Rule.of("POST", "/graphql") : new Rule("POST", "/graphql", f));
        return lists().of(rule).ofSizeBetween(1, 3).map(rules -> new Policy("agent", null, Verdict.DENY, null,
                List.of(DomainEntry.allow("api.test").withRules(rules)), null, null, null, null, null, null));
    }

    private static Candidate candidate(Policy policy) {
        return Candidate.of(Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(policy)));
    }

    private static EgressRequest request(String body) {
        return new EgressRequest("https", "api.test", 443, null, "/usr/bin/gh", "POST", "/graphql", null,
                Map.of("content-type", List.of("application/json")), body.getBytes(StandardCharsets.UTF_8), false);
    }

    /** The entry the proxy writes for {@code r} under {@code program}: the summary when a fence read the operations. */
    private static RecordedDecision.Egress recorded(DecisionProgram program, EgressRequest r) {
        Decision d = program.decide(r);
        boolean judged = d.allowed() ? program.graphqlFenced(r) : JUDGED_DENIES.contains(d.reason());
        GraphqlSummary summary = judged ? READER.read(GraphqlExchange.of("POST", "application/json", null, r.body(),
                false, false)).orElse(null) : null;
        return new RecordedDecision.Egress(Instant.ofEpochSecond(1_800_000_000L), "sb", EgressListener.INTERCEPTED,
                "api.test", 443, "POST", "/graphql", "/usr/bin/gh", d.verdict(), d.reason().code(), summary);
    }

    @Test
    void whenReplayDecidesItDecidesAsTheCandidateDecidesTheRealRequest() {
        long[] seen = new long[3]; // decided from a record, declined for arguments, declined for no record
        QuickTheory.qt().withFixedSeed(SEED).withExamples(500).forAll(policies(), policies(),
                arbitrary().pick(BODIES)).checkAssert((inForce, candidatePolicy, body) -> {
                    EgressRequest real = request(body);
                    RecordedDecision.Egress e = recorded(candidate(inForce).program(), real);
                    Candidate c = candidate(candidatePolicy);
                    Redecision again = Redecision.of(e, c);
                    if (again instanceof Redecision.Decided d) {
                        assertThat(d.verdict()).as("%s%n%s%n%s", body, inForce, candidatePolicy)
                                .isEqualTo(c.program().decide(real).verdict());
                        seen[0] += e.graphql() != null ? 1 : 0;
                        return;
                    }
                    NotReplayable why = ((Redecision.Skipped) again).why();
                    if (why == NotReplayable.GRAPHQL_ARGUMENTS_NOT_RECORDED) {
                        assertThat(candidatePolicy.domains().get(0).rules()).anyMatch(r -> r.graphql() != null
                                && r.graphql().arguments() != null);
                        seen[1]++;
                    } else {
                        assertThat(why).isEqualTo(NotReplayable.GRAPHQL_NOT_RECORDED);
                        assertThat(e.graphql()).isNull();
                        seen[2]++;
                    }
                });
        assertThat(seen[0]).as("decided from a record").isGreaterThan(100);
        assertThat(seen[1]).as("declined for an argument condition").isPositive();
        assertThat(seen[2]).as("declined for a missing record").isPositive();
    }

    @Test
    void underThePolicyInForceEveryRecordedGraphqlDecisionReplaysUnchangedOrIsDeclinedForArguments() {
        QuickTheory.qt().withFixedSeed(SEED).withExamples(300).forAll(policies(), lists().of(arbitrary().pick(BODIES))
                .ofSizeBetween(1, 6)).checkAssert((policy, bodies) -> {
                    Candidate inForce = candidate(policy);
                    List<RecordedDecision> trail = new ArrayList<>();
                    bodies.forEach(b -> trail.add(recorded(inForce.program(), request(b))));
                    ImpactReport r = ImpactReplay.replay(CandidateSource.everywhere(inForce), ImpactLimits.defaults(),
                            trail);
                    assertThat(r.newlyDenied()).isZero();
                    assertThat(r.newlyAllowed()).isZero();
                    assertThat(r.notReplayableBy()).extracting(ImpactReport.NotReplayableCount::reason)
                            .isSubsetOf(NotReplayable.GRAPHQL_ARGUMENTS_NOT_RECORDED, NotReplayable.GRAPHQL_NOT_RECORDED);
                });
    }
}
