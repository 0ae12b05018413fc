package dev.stockade.bench;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.model.Policy;
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

/** Resolution plus compilation of one policy into a decision program. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class CompileBenchmark {
    @Param({"10", "1000", "10000"})
    public int size;

    private Policy policy;

    @Setup(Level.Trial)
    public void setUp() {
        policy = new Workload(size, false).policy();
    }

    @Benchmark
    public DecisionProgram resolveAndCompile() {
        return PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(policy)),
                CompileOptions.defaults());
    }
}
