package dev.stockade.bench.graphql;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Rule;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A GraphQL request decided through the whole program ({@code DecisionProgram.decide}), not the fence set
 * alone: the entry's rule table is walked, the matching graphql rules judge the cached operation, and an
 * admitted and a refused operation each produce their decision. This is the path the entry's rule fences
 * take for every intercepted GraphQL request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GraphqlDecisionBenchmark {

    @Param({"small", "medium"})
    public String size;

    private DecisionProgram program;
    private EgressRequest admitted;
    private EgressRequest refused;

    @Setup
    public void setUp() {
        GraphqlFence reads = new GraphqlFence(OperationType.QUERY, "*",
                List.of("repository", "viewer", "organization", "search", "rateLimit"),
                List.of(new ArgumentCondition("repository", "/owner", "acme*")));
        GraphqlFence narrow = new GraphqlFence(OperationType.QUERY, "*", List.of("viewer"), List.of());
        DomainEntry entry = DomainEntry.allow("api.github.com").withRules(List.of(
                Rule.of("GET", "/repos/**"),
                new Rule("POST", "/graphql", narrow),
                new Rule("POST", "/graphql", reads),
                Rule.of("GET", "/users/*")));
        program = PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), List.of(),
                List.of(Policy.named("bench").withAllowedDomains(List.of(entry)))), CompileOptions.defaults());
        String query = GithubOperations.query(size);
        admitted = request(GithubOperations.body(query, size));
        refused = request(GithubOperations.body(query.replace("repository(owner: $owner", "repository(owner: \"evil\""),
                size));
        check(program.decide(admitted), ReasonCode.RULE_ALLOW);
        check(program.decide(refused), ReasonCode.GRAPHQL_FIELD_DENIED);
    }

    private static EgressRequest request(String body) {
        return new EgressRequest("https", "api.github.com", 443, "api.github.com", "/usr/bin/gh", "POST", "/graphql",
                null, Map.of("content-type", List.of("application/json")), body.getBytes(StandardCharsets.UTF_8),
                false);
    }

    private static void check(Decision decision, ReasonCode expected) {
        if (decision.reason() != expected) {
            throw new IllegalStateException("expected " + expected + ", got " + decision);
        }
    }

    /** An operation the second graphql rule admits (the first refuses its fields). */
    @Benchmark
    public Decision admitted() {
        return program.decide(admitted);
    }

    /** An operation every graphql rule refuses: the first refusal is the decision. */
    @Benchmark
    public Decision refused() {
        return program.decide(refused);
    }
}
