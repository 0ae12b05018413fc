package dev.stockade.policy.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;
import java.util.Map;

/**
 * Fuzzes hosts, paths, methods and callers through a compiled program: no input may cause an internal
 * error, every detail is one line, and every allowed connection agrees with the reference evaluator.
 * Runs the seeds in regression mode under plain {@code mvn test}; {@code JAZZER_FUZZ=1} explores.
 */
class DecideFuzzTest {
    private static final List<Policy> CEILING = List.of(Policies.policy("org", Policies.deny("evil.example.org"),
            Policies.allow("*")));
    private static final List<Policy> GRANTS = List.of(
            Policies.policy("p", Policies.callers("github.com", "/usr/bin/git"),
                    Policies.rules("api.github.com", Rule.of("GET", "/repos/*/pulls"),
                            new Rule("POST", "/graphql", new GraphqlFence(OperationType.QUERY, null, null, null))),
                    new DomainEntry("*.example.org", Verdict.ALLOW, Transport.DIRECT, "https", null, null, null),
                    Policies.allow("api-*.example.com"), Policies.allow("10.0.0.1"),
                    Policies.allow("xn--bcher-kva.example")),
            Policies.policy("q", Verdict.ALLOW, Policies.deny("*.internal.example.org")));
    private static final DecisionProgram PROGRAM = PolicyCompiler.compile(
            Resolver.resolve(InstallFacts.defaults(), CEILING, GRANTS), CompileOptions.defaults());
    private static final String[] SCHEMES = {"https", "http", null, "HTTPS"};
    private static final String[] CALLERS = {"/usr/bin/git", "/usr/bin/curl", null};

    @FuzzTest(maxDuration = "30s")
    void fuzzDecide(FuzzedDataProvider data) {
        String scheme = data.pickValue(SCHEMES);
        String caller = data.pickValue(CALLERS);
        String method = data.consumeString(8);
        String path = data.consumeString(64);
        String host = data.consumeRemainingAsString();
        EgressRequest request = new EgressRequest(scheme, host, 443, null, caller, method, path, null, Map.of(), null,
                false);
        check(PROGRAM.decide(request));
        EgressRequest connection = EgressRequest.connection(scheme, host, 443, null, caller);
        Decision d = check(PROGRAM.decideConnection(connection));
        if (d.allowed()) {
            assertThat(ReferenceEvaluator.decide(CEILING, GRANTS, connection, true).verdict()).isEqualTo(Verdict.ALLOW);
        }
    }

    private static Decision check(Decision d) {
        assertThat(d).isNotNull();
        assertThat(d.reason()).isNotEqualTo(ReasonCode.INTERNAL_ERROR);
        assertThat(d.detail()).isNotBlank().doesNotContain("\n");
        return d;
    }
}
