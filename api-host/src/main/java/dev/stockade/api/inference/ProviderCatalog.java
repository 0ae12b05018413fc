package dev.stockade.api.inference;

import dev.stockade.api.kernel.config.InferenceConfig;
import dev.stockade.policy.model.Provider;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What the deployment serves and what one organization can use of it: the REST routes' and the MCP tool's answer. */
@Singleton
record ProviderCatalog(InferenceConfig config, InferenceKeys keys, OrgInferenceFacts facts) {
    /** Every backend, whether the deployment serves it and has its own key, and the deployment's default. */
    InferenceViews.DeploymentProviders deployment() {
        List<InferenceViews.DeploymentProvider> out = new ArrayList<>();
        for (Provider p : Provider.values()) {
            out.add(new InferenceViews.DeploymentProvider(p.wire(), config.serves(p), config.hasDeploymentKey(p)));
        }
        return new InferenceViews.DeploymentProviders(wire(config.installFacts().defaultProvider()),
                config.deploymentKeyFallback(), out);
    }

    /** Every backend as {@code org} can use it: available or not, and whose key its calls send. */
    InferenceViews.OrgProviders of(UUID org) {
        Map<Provider, Boolean> own = keys.orgHasKey(org);
        List<InferenceViews.OrgProvider> out = new ArrayList<>();
        for (Provider p : Provider.values()) {
            boolean deployment = config.deploymentKeyFallback() && config.hasDeploymentKey(p);
            String source = !config.serves(p) ? null
                    : own.get(p) ? InferenceKeys.Source.ORG.slug()
                    : deployment ? InferenceKeys.Source.DEPLOYMENT.slug()
                    : keys.offersAmbient(p) ? InferenceKeys.Source.AMBIENT.slug() : null;
            out.add(new InferenceViews.OrgProvider(p.wire(), source != null, source));
        }
        return new InferenceViews.OrgProviders(wire(facts.forOrg(org).defaultProvider()), out);
    }

    private static String wire(Provider p) {
        return p == null ? null : p.wire();
    }
}
