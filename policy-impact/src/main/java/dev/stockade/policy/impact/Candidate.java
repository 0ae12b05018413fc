package dev.stockade.policy.impact;

import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.model.ConnectorGrant;
import java.util.List;
import java.util.Objects;

/**
 * A candidate effective policy in the form decisions are made from: the compiled program (egress) and the connector
 * grants (tool calls), both from one {@link Resolution}, the way the platform resolves a sandbox.
 */
public record Candidate(DecisionProgram program, List<ConnectorGrant> connectorGrants) {
    public Candidate {
        Objects.requireNonNull(program, "program");
        connectorGrants = List.copyOf(connectorGrants);
    }

    /** Compiles {@code resolution} with the default options, as enforcement does. */
    public static Candidate of(Resolution resolution) {
        return new Candidate(PolicyCompiler.compile(resolution, CompileOptions.defaults()),
                resolution.connectorGrants());
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
