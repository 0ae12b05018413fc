package dev.stockade.api.inference;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Instant;
import java.util.List;

/** The bodies the inference routes take and answer. */
final class InferenceViews {
    private InferenceViews() {
    }

    /**
     * The body of {@code PUT /orgs/{orgId}/inference/keys/{source}}.
     *
     * @param key the backend's API key: printable ASCII without spaces, at most 4096 characters (it travels in a
     *            header)
     */
    @Introspected
    record SetKey(@NotNull @Pattern(regexp = "[\\x21-\\x7E]{1,4096}",
            message = "must be 1 to 4096 printable ASCII characters without spaces") String key) {
        @Override
        public String toString() {
            return "SetKey[key=<redacted>]";
        }
    }

    /** One stored organization key: never the key itself. */
    @Introspected
    record KeyView(String source, Instant updatedAt, String updatedBy) {
        static KeyView of(InferenceKeys.StoredKey k) {
            return new KeyView(k.provider().wire(), k.updatedAt(), k.updatedBy());
        }
    }

    @Introspected
    record Keys(List<KeyView> items) {
    }

    /**
     * A backend as the deployment serves it.
     *
     * @param provider      the backend's policy value
     * @param served        whether the installation serves it
     * @param deploymentKey whether the installation has its own key for it (lent to organizations without one when
     *                      {@code inference.deploymentKeyFallback} is on)
     */
    @Introspected
    record DeploymentProvider(String provider, boolean served, boolean deploymentKey) {
    }

    /** {@code GET /inference/providers}. */
    @Introspected
    record DeploymentProviders(@Nullable String defaultProvider, boolean deploymentKeyFallback,
                               List<DeploymentProvider> providers) {
    }

    /**
     * A backend as one organization can use it.
     *
     * @param provider  the backend's policy value
     * @param available whether a policy of the organization enabling it gets answers (served, and a key exists)
     * @param keySource whose key its calls use: {@code org}, {@code deployment}, or null when none
     */
    @Introspected
    record OrgProvider(String provider, boolean available, @Nullable String keySource) {
    }

    /** {@code GET /orgs/{orgId}/inference/providers}. */
    @Introspected
    record OrgProviders(@Nullable String defaultProvider, List<OrgProvider> providers) {
    }
}
