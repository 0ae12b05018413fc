package dev.stockade.api.kernel.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Enrollment hub values (spec: Installation values for enrollment). Secrets are named, not inlined: a secret is a
 * directory under {@code <dataDir>/secrets/<name>/} holding one file per key, the layout of a mounted Kubernetes
 * secret.
 */
@ConfigurationProperties("hub")
public record HubConfig(
        @Nullable String url,
        @Nullable String publicUrl,
        @Nullable String fleetId,
        AccessTokenSecret accessTokenSecret,
        Setup setup,
        @Bindable(defaultValue = "false") boolean dev,
        @Bindable(defaultValue = "60s") Duration heartbeatInterval) {

    /** {@code hub.accessTokenSecret.*}: the secret holding the fleet access token. */
    @ConfigurationProperties("access-token-secret")
    public record AccessTokenSecret(@Bindable(defaultValue = "") String name,
                                    @Bindable(defaultValue = "accessToken") String key) {
    }

    /** {@code hub.setup.*}: the setup screen and its code. */
    @ConfigurationProperties("setup")
    public record Setup(@Bindable(defaultValue = "true") boolean enabled,
                        @Bindable(defaultValue = "") String existingSecret,
                        @Bindable(defaultValue = "setupCode") String key) {
    }

    public boolean hasValues() {
        return fleetId != null && !fleetId.isBlank();
    }

    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (url != null && !url.isBlank()) {
            try {
                URI u = URI.create(url);
                if (u.getScheme() == null || u.getHost() == null) {
                    out.add("hub.url: `" + url + "` must be an absolute URL");
                }
            } catch (IllegalArgumentException e) {
                out.add("hub.url: `" + url + "` is not a URL");
            }
        }
        if (hasValues() && accessTokenSecret.name().isBlank()) {
            out.add("hub.accessTokenSecret.name: required when hub.fleetId is set");
        }
        if (hasValues() && (url == null || url.isBlank()) && !dev) {
            out.add("hub.url: required when hub.fleetId is set");
        }
        if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
            out.add("hub.heartbeatInterval: must be positive");
        }
        return out;
    }
}
