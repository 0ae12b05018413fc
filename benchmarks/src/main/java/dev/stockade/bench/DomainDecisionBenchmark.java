package dev.stockade.bench;

import com.cedarpolicy.BasicAuthorizationEngine;
import com.cedarpolicy.model.AuthorizationRequest;
import com.cedarpolicy.model.AuthorizationResponse;
import com.cedarpolicy.model.entity.Entities;
import com.cedarpolicy.model.policy.PolicySet;
import com.cedarpolicy.value.EntityTypeName;
import com.cedarpolicy.value.EntityUID;
import com.cedarpolicy.value.PrimString;
import com.cedarpolicy.value.Value;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.MapType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Connection-level domain decisions on policies of 10, 1,000 and 10,000 entries (80% exact names, 20%
 * leading-label wildcards; requests 40% exact hits, 30% wildcard hits, 30% misses), beside the floor:
 * a HashMap lookup of the exact host. Baselines on the same workload: {@link RegexBaselineBenchmark},
 * {@link CelBaselineBenchmark}, {@link CedarBaselineBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class DomainDecisionBenchmark {
    @Param({"10", "1000", "10000"})
    public int size;

    /**
     * Which requests to replay: {@code mixed} (the recorded workload) or one class of it alone,
     * {@code exact}, {@code wildcard} or {@code miss}, to see what each costs.
     */
    @Param({"mixed"})
    public String traffic;

    /**
     * Whether the program keeps its memo of recent hosts ({@code true}, the default) or places every
     * host through the index ({@code false}: what a host never seen before costs).
     */
    @Param({"true"})
    public boolean hostMemo;

    /**
     * How many entries naming a port ({@code pN.ported.example:443}, hosts the traffic never asks for) the
     * policy gets beside its portless ones: {@code 0} is the recorded workload; more measures what ports cost
     * (a second index lookup on port 443, and a look for the host on other ports before a default deny).
     */
    @Param({"0"})
    public int portEntries;

    private Workload workload;
    private DecisionProgram program;
    private EgressRequest[] connections;
    private Map<String, Boolean> exactFloor;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        workload = new Workload(size, false, Workload.Traffic.valueOf(traffic.toUpperCase(java.util.Locale.ROOT)));
        CompileOptions options = hostMemo ? CompileOptions.defaults() : CompileOptions.defaults().withHostMemoSlots(0);
        program = PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), List.of(),
                List.of(withPortEntries(workload.policy()))), options);
        connections = workload.connections();
        for (int i = 0; i < connections.length; i++) {
            Decision d = program.decideConnection(connections[i]);
            if (d.allowed() != workload.expectAllow[i]) {
                throw new IllegalStateException("workload and program disagree on " + workload.hosts[i]);
            }
        }
        exactFloor = workload.exactMap();
    }

    private Policy withPortEntries(Policy policy) {
        List<DomainEntry> entries = new ArrayList<>(policy.domains());
        for (int i = 0; i < portEntries; i++) {
            entries.add(DomainEntry.allow("p" + i + ".ported.example:443"));
        }
        return policy.withAllowedDomains(entries);
    }

    private int nextIndex() {
        int i = next;
        next = (i + 1) & (Workload.REQUESTS - 1);
        return i;
    }

    @Benchmark
    public Decision stockade() {
        return program.decideConnection(connections[nextIndex()]);
    }

    @Benchmark
    public Boolean hashMapFloor() {
        return exactFloor.get(workload.hosts[nextIndex()]);
    }
}
