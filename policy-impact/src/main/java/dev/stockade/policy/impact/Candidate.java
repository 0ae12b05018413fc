package dev.stockade.policy.impact;

import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.model.ConnectorGrant;
import java.util.List;
import java.util.Objects;

/**
 * A candidate effective policy in the form decisions are made from: the compiled program (egress) and the connector
 * grants (tool calls), both from one {@link Resolution}, the way the platform resolves a sandbox.
 *
 * @param program          the candidate's program
 * @param connectorGrants  the candidate's connector grants
 * @param withoutArguments the program of the same policy with the argument conditions of its GraphQL fences dropped
 *                         ({@link WithoutArgumentConditions}); {@code program} itself when it has none
 */
public record Candidate(DecisionProgram program, List<ConnectorGrant> connectorGrants,
        DecisionProgram withoutArguments) {
    public Candidate {
        Objects.requireNonNull(program, "program");
        Objects.requireNonNull(withoutArguments, "withoutArguments");
        connectorGrants = List.copyOf(connectorGrants);
    }

    /** Compiles {@code resolution} with the default options, as enforcement does (twice if it has conditions). */
    public static Candidate of(Resolution resolution) {
        DecisionProgram program = PolicyCompiler.compile(resolution, CompileOptions.defaults());
        EffectivePolicy effective = resolution == null ? null : resolution.effective();
        EffectivePolicy free = WithoutArgumentConditions.of(effective);
        return new Candidate(program, resolution == null ? List.of() : resolution.connectorGrants(),
                free == effective ? program : PolicyCompiler.compile(free, CompileOptions.defaults()));
    }

    /** Whether the grants let the caller call {@code upstreamTool} of connector {@code connectorId}. */
    public boolean grantsTool(String connectorId, String upstreamTool) {
        for (ConnectorGrant g : connectorGrants) {
            if (g.connectorId().equalsIgnoreCase(connectorId) && g.allowedTools() != null
                    && g.allowedTools().contains(upstreamTool)) {
                return true;
            }
        }
        return false;
    }
}
