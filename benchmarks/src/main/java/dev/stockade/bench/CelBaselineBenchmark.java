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
 * Baseline: Google CEL evaluating the allow-list expression
 * {@code host in exact || suffixes.exists(s, host.endsWith(s))} with the exact names as a map and the
 * wildcard suffixes as a list (the most favourable equivalent form for CEL: a hash lookup plus a scan).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class CelBaselineBenchmark {
    @Param({"10", "1000", "10000"})
    public int size;

    private Workload workload;
    private CelRuntime.Program cel;
    private List<Map<String, Object>> celActivations;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        workload = new Workload(size, false);
        Map<String, Boolean> exactFloor = workload.exactMap();
        CelCompiler compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addVar("host", SimpleType.STRING)
                .addVar("exact", MapType.create(SimpleType.STRING, SimpleType.BOOL))
                .addVar("suffixes", ListType.create(SimpleType.STRING))
                .build();
        CelAbstractSyntaxTree ast = compiler.compile(
                "host in exact || suffixes.exists(s, host.endsWith(s))").getAst();
        cel = CelRuntimeFactory.standardCelRuntimeBuilder().build().createProgram(ast);
        List<String> dotted = workload.suffixes.stream().map(s -> "." + s).toList();
        celActivations = new java.util.ArrayList<>(Workload.REQUESTS);
        for (int i = 0; i < Workload.REQUESTS; i++) {
            celActivations.add(Map.of("host", workload.hosts[i], "exact", exactFloor, "suffixes", dotted));
            if (Boolean.TRUE.equals(cel.eval(celActivations.get(i))) != workload.expectAllow[i]) {
                throw new IllegalStateException("CEL disagrees on " + workload.hosts[i]);
            }
        }
    }


    @Benchmark
    public Object cel() throws Exception {
        int i = next;
        next = (i + 1) & (Workload.REQUESTS - 1);
        return cel.eval(celActivations.get(i));
    }
}
