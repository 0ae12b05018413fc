package dev.stockade.api.connectors;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * An OAuth application the operator configured for connector credentials ({@code connectors.oauth-applications.NAME}):
 * the authorization server's endpoints and the client registered there. Project admins list them by name; the client
 * secret never leaves the configuration.
 *
 * @param issuer the authorization server's issuer (matched against a connector's protected-resource metadata)
 */
@EachProperty("connectors.oauth-applications")
public record OAuthApplication(@Parameter String name, String issuer, String authorizationEndpoint,
                               String tokenEndpoint, String clientId, @Nullable String clientSecret,
                               @Nullable List<String> scopes) {

    public OAuthApplication {
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
    }

    @Override
    public String toString() {
        return "OAuthApplication[" + name + ", " + issuer + "]"; // never the client secret
    }
}
