package dev.stockade.bench;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.compiler.ResolutionTooLarge;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlFenceSet;
import dev.stockade.policy.graphql.GraphqlLimits;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The worst cases the hostile-input bounds admit (issue 17), each beside a plain baseline in the same
 * run: the longest star-dense path glob against a 125 KB path; a thousand aliases of one 200 KB variable
 * against a star-dense value glob; resolving and compiling two policies of crossing wildcards at the
 * in-label-wildcard row bound, a decision there, and refusing the pair that would cross a million times.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class HostileBoundsBenchmark {
    /** Star-dense: 2,048 segment stars, the 4,096-character limit. */
    private static final String DENSE_PATH = "/" + "*a".repeat(2047) + "b";
    private static final String DENSE_VALUE = "a*".repeat(2000) + "b";

    private Glob densePath;
    private Glob plainPath;
    private String longPath;
    private GraphqlFenceSet aliasFence;
    private GraphqlExchange aliasExchange;
    private Policy crossA;
    private Policy crossB;
    private Policy millionA;
    private Policy millionB;
    private DecisionProgram atBound;

    private static Policy policy(String name, int count, IntFunction<String> pattern) {
        List<DomainEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(DomainEntry.allow(pattern.apply(i)));
        }
        return Policy.named(name).withAllowedDomains(entries);
    }

    @Setup(Level.Trial)
    public void setUp() {
        densePath = Glob.compile(GlobKind.PATH, DENSE_PATH).glob();
        plainPath = Glob.compile(GlobKind.PATH, "/repos/*/pulls").glob();
        longPath = "/" + "a".repeat(125_000);
        aliasFence = GraphqlFenceSet.allOf(List.of(new GraphqlFence(OperationType.QUERY, null, List.of("repository"),
                List.of(new ArgumentCondition("repository", "/owner", DENSE_VALUE)))), GraphqlLimits.defaults());
        StringBuilder query = new StringBuilder("query($o: String) {");
        for (int i = 0; i < 1000; i++) {
            query.append(" r").append(i).append(": repository(owner: $o) { id }");
        }
        String body = "{\"query\":\"" + query.append(" }") + "\",\"variables\":{\"o\":\"" + "a".repeat(200_000) + "\"}}";
        aliasExchange = GraphqlExchange.of("POST", "application/json", null, body.getBytes(StandardCharsets.UTF_8),
                false, false);
        crossA = policy("a", 99, i -> "a" + i + "-*.example.com");
        crossB = policy("b", 99, i -> "*-b" + i + ".example.com");
        millionA = policy("a", 1000, i -> "a" + i + "-*.example.com");
        millionB = policy("b", 1000, i -> "*-b" + i + ".example.com");
        // No host memo: every call walks the rows (the memo would answer a repeated host at once).
        atBound = PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(crossA, crossB)),
                CompileOptions.defaults().withHostMemoSlots(0));
    }

    @Benchmark
    public boolean densePathGlobOn125KbPath() {
        return densePath.matches(longPath);
    }

    @Benchmark
    public boolean baselinePlainPathGlobOn125KbPath() {
        return plainPath.matches(longPath);
    }

    @Benchmark
    public FenceResult thousandAliasesOfA200KbVariable() {
        // A new exchange each time would re-read the body; the judged work (glob matching) is per judge call.
        return aliasFence.judge(aliasExchange);
    }

    @Benchmark
    public DecisionProgram resolveAndCompileAtTheBound() {
        Resolution r = Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(crossA, crossB));
        return PolicyCompiler.compile(r, CompileOptions.defaults());
    }

    @Benchmark
    public Decision decideAMissAtTheBound() {
        return atBound.decide(new EgressRequest("https", "nothing-here.example.com", 443, null, null, "GET", "/",
                null, java.util.Map.of(), null, false));
    }

    @Benchmark
    public String refuseAMillionRows() {
        try {
            Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(millionA, millionB));
            return "resolved";
        } catch (ResolutionTooLarge e) {
            return e.getMessage();
        }
    }
}
