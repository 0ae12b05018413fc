package dev.stockade.policy.compiler;

import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.PiiMasking;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What resolution hands a sandbox: the effective domain policy (compile it with
 * {@link PolicyCompiler#compile}), the drift against the ceiling, the environment plan, the connector
 * grants, the managed-inference selection and the PII masking the calls of the sandbox get.
 *
 * @param effective        the merged, ceiling-clipped domain policy
 * @param drift            what the projects asked for and did not get
 * @param sandboxEnv       environment variables for the sandbox, in a stable order
 * @param connectorGrants  one grant per connector, tools intersected across policies and the ceiling
 * @param managedInference {@code enabled}, {@code provider}, {@code providers} and {@code env} as
 *                         resolved; {@code enabled == false} with no provider when off
 * @param boundCredentials the names of the credentials the grant policies bind, each once, first bound first:
 *                         an enforcement point sets their header on a request that lacks it
 * @param piiMasking       the masking every model call of the agent gets, merged over the ceiling and the grants
 *                         (types in {@code MaskingType} order, both booleans explicit); {@code null} when no policy
 *                         sets {@code piiMasking}
 */
public record Resolution(
        EffectivePolicy effective,
        DriftReport drift,
        Map<String, String> sandboxEnv,
        List<ConnectorGrant> connectorGrants,
        ManagedInference managedInference,
        List<String> boundCredentials,
        PiiMasking piiMasking) {

    /** Copies the environment plan (in its order) and the lists, so the resolution stays immutable. */
    public Resolution {
        sandboxEnv = Collections.unmodifiableMap(new LinkedHashMap<>(sandboxEnv));
        connectorGrants = List.copyOf(connectorGrants);
        boundCredentials = List.copyOf(boundCredentials);
    }
}
