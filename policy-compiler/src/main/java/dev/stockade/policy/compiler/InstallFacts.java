package dev.stockade.policy.compiler;

import dev.stockade.policy.model.Provider;
import java.util.List;

/**
 * What resolution needs to know about the installation.
 *
 * @param providers      backends the install serves with its own key, in the install's order
 * @param bedrockAmbient whether the cloud credential chain found bedrock credentials at boot
 */
public record InstallFacts(List<Provider> providers, boolean bedrockAmbient) {

    /** Copies the providers; none given ({@code null}) means the default install, which serves bedrock. */
    public InstallFacts {
        providers = providers == null ? List.of(Provider.BEDROCK) : List.copyOf(providers);
    }

    /** The defaults of FORMAT.md: serves bedrock, no ambient credentials. */
    public static InstallFacts defaults() {
        return new InstallFacts(List.of(Provider.BEDROCK), false);
    }

    /**
     * The backend a policy naming none receives (spec: the default-provider rule): bedrock where the install serves
     * it, else the first backend it serves with its own key; {@code null} when it serves none.
     */
    public Provider defaultProvider() {
        if (servesBedrock()) {
            return Provider.BEDROCK;
        }
        return providers.isEmpty() ? null : providers.get(0);
    }

    /** Whether the install can serve bedrock (with a key, or through ambient credentials). */
    public boolean servesBedrock() {
        return bedrockAmbient || providers.contains(Provider.BEDROCK);
    }
}
