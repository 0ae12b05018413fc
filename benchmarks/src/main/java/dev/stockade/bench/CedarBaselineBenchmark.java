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
 * Baseline: Cedar authorizing the equivalent policy set (one {@code permit} per exact name on the
 * resource, one {@code permit ... when context.host like "*.suffix"} per wildcard).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class CedarBaselineBenchmark {
    @Param({"10", "1000", "10000"})
    public int size;

    private Workload workload;
    private BasicAuthorizationEngine cedar;
    private PolicySet cedarPolicies;
    private AuthorizationRequest[] cedarRequests;
    private Entities cedarEntities;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        workload = new Workload(size, false);
        StringBuilder text = new StringBuilder();
        for (String e : workload.exact) {
            text.append("permit(principal, action == Action::\"connect\", resource == Host::\"").append(e)
                    .append("\");\n");
        }
        for (String s : workload.suffixes) {
            text.append("permit(principal, action == Action::\"connect\", resource) when { context.host like \"*.")
                    .append(s).append("\" };\n");
        }
        cedarPolicies = PolicySet.parsePolicies(text.toString());
        cedarPolicies.cache(); // Cedar's own cache: the policy set is not re-sent on every call
        cedar = new BasicAuthorizationEngine();
        cedarEntities = new Entities();
        EntityTypeName hostType = EntityTypeName.parse("Host").orElseThrow();
        EntityUID principal = EntityTypeName.parse("Caller").orElseThrow().of("/usr/bin/git");
        EntityUID action = EntityTypeName.parse("Action").orElseThrow().of("connect");
        cedarRequests = new AuthorizationRequest[Workload.REQUESTS];
        for (int i = 0; i < Workload.REQUESTS; i++) {
            Map<String, Value> context = Map.of("host", new PrimString(workload.hosts[i]));
            cedarRequests[i] = new AuthorizationRequest(principal, action, hostType.of(workload.hosts[i]), context);
            if (i >= 64) {
                continue; // at 10,000 policies one call takes tens of milliseconds: check a sample
            }
            AuthorizationResponse r = cedar.isAuthorized(cedarRequests[i], cedarPolicies, cedarEntities);
            if (r.success.map(s -> s.isAllowed()).orElse(false) != workload.expectAllow[i]) {
                throw new IllegalStateException("Cedar disagrees on " + workload.hosts[i]);
            }
        }
    }


    @Benchmark
    public boolean cedar() throws Exception {
        int i = next;
        next = (i + 1) & (Workload.REQUESTS - 1);
        return cedar.isAuthorized(cedarRequests[i], cedarPolicies, cedarEntities).success
                .map(s -> s.isAllowed()).orElse(false);
    }
}
