package dev.stockade.api.inference;

import dev.stockade.api.kernel.config.InferenceConfig;
import dev.stockade.api.kernel.config.InferenceFacts;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.model.Provider;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The facts resolution uses in one organization: a backend counts as served with a key when the install serves it
 * and the organization has its own key, or the install has one and lends it ({@code deploymentKeyFallback}). So an
 * organization with its own Bedrock key gets Bedrock as its default backend (spec: the default-provider rule).
 */
@Singleton
record OrgInferenceFacts(InferenceConfig config, InferenceKeys keys) implements InferenceFacts {
    @Override
    public InstallFacts forOrg(UUID orgId) {
        Map<Provider, Boolean> own = keys.orgHasKey(orgId);
        List<Provider> served = new ArrayList<>();
        for (Provider p : Provider.values()) {
            boolean deployment = config.deploymentKeyFallback() && config.hasDeploymentKey(p);
            if (config.serves(p) && (own.get(p) || deployment)) {
                served.add(p);
            }
        }
        return new InstallFacts(served, config.installFacts().bedrockAmbient());
    }
}
