package dev.stockade.bench;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Full request decisions (host, then method and path globs of three rules per entry). */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class RequestDecisionBenchmark {
    @Param({"10", "1000", "10000"})
    public int size;

    private DecisionProgram program;
    private EgressRequest[] requests;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        Workload workload = new Workload(size, true);
        program = PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), List.of(),
                List.of(workload.policy())), CompileOptions.defaults());
        requests = workload.requests();
        for (int i = 0; i < requests.length; i++) {
            boolean expected = workload.expectAllow[i] && i % 2 == 0;
            if (program.decide(requests[i]).allowed() != expected) {
                throw new IllegalStateException("unexpected decision for " + requests[i]);
            }
        }
    }

    @Benchmark
    public Decision stockadeRequest() {
        int i = next;
        next = (i + 1) & (Workload.REQUESTS - 1);
        return program.decide(requests[i]);
    }
}
