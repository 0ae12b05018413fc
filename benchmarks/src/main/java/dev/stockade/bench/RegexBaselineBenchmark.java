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
 * Baseline only: a naive first-match scan over java.util.regex patterns equivalent to the workload's
 * entries (the engine never uses java.util.regex for user patterns).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class RegexBaselineBenchmark {
    @Param({"10", "1000", "10000"})
    public int size;

    private Workload workload;
    private Pattern[] regexes;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        workload = new Workload(size, false);
        regexes = new Pattern[workload.entries.size()];
        for (int i = 0; i < regexes.length; i++) {
            String p = workload.entries.get(i).pattern();
            regexes[i] = p.startsWith("*.")
                    ? Pattern.compile("(?i)(?:[^.]+\\.)+" + Pattern.quote(p.substring(2)))
                    : Pattern.compile("(?i)" + Pattern.quote(p));
        }
        for (int k = 0; k < Workload.REQUESTS; k++) {
            if ((scan(workload.hosts[k]) >= 0) != workload.expectAllow[k]) {
                throw new IllegalStateException("regex scan disagrees on " + workload.hosts[k]);
            }
        }
    }

    private int scan(String host) {
        for (int i = 0; i < regexes.length; i++) {
            if (regexes[i].matcher(host).matches()) {
                return i;
            }
        }
        return -1;
    }

    @Benchmark
    public int regexFirstMatchScan() {
        int i = next;
        next = (i + 1) & (Workload.REQUESTS - 1);
        return scan(workload.hosts[i]);
    }
}
