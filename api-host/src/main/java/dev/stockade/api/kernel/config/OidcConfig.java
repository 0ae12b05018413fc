package dev.stockade.api.kernel.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The identity provider (spec: {@code oidc.*}). Tokens are verified against the issuer's discovery document and JWKS.
 *
 * @param issuer                 the issuer URL; empty disables OIDC sign-in (API tokens still work)
 * @param audience               the audience a token must carry (usually the client id)
 * @param clientId               the public client the CLI and UI sign in with
 * @param directAccessRole       when set, only people holding this realm role may use the platform directly
 * @param directAccessReportOnly log and audit would-be refusals instead of refusing
 */
@ConfigurationProperties("oidc")
public record OidcConfig(
        @Bindable(defaultValue = "false") boolean useExternalProvider,
        @Nullable String issuer,
        @Nullable String audience,
        @Nullable String clientId,
        @Nullable String directAccessRole,
        @Bindable(defaultValue = "false") boolean directAccessReportOnly) {

    public boolean enabled() {
        return issuer != null && !issuer.isBlank();
    }

    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (enabled()) {
            try {
                URI u = URI.create(issuer);
                if (u.getScheme() == null || u.getHost() == null) {
                    out.add("oidc.issuer: `" + issuer + "` must be an absolute URL");
                }
            } catch (IllegalArgumentException e) {
                out.add("oidc.issuer: `" + issuer + "` is not a URL");
            }
            if (audience == null || audience.isBlank()) {
                out.add("oidc.audience: required when oidc.issuer is set (tokens for other clients must not pass)");
            }
        }
        return out;
    }
}
