package dev.stockade.policy.model;

import java.util.List;
import java.util.Map;

/** The {@code managedInference} object. {@code null} components were absent. */
public record ManagedInference(Boolean enabled, Provider provider, List<Provider> providers, Map<String, String> env) {

    /** Copies the lists (absent stays {@code null}: the document said nothing), so the value stays immutable. */
    public ManagedInference {
        providers = Lists.copyOrNull(providers);
        env = Lists.copyOrNull(env);
    }

    /** Whether the block turns managed inference on. */
    public boolean isEnabled() {
        return Boolean.TRUE.equals(enabled);
    }
}
