package dev.stockade.api.signin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.OidcDiscovery;
import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.http.uri.UriBuilder;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The platform as the identity provider's client for browser sign-in: authorization code with PKCE S256, the same for
 * the embedded provider (its built-in client {@value #WEB_CLIENT}, exchanged in-process) and an external one
 * ({@code oidc.clientId}, exchanged at its token endpoint). The redirect URI is {@code <public URL>/signin/callback}.
 */
@Singleton
final class BrowserProvider {
    static final String WEB_CLIENT = "stockade-web";

    private final PlatformConfig config;
    private final OidcConfig oidc;
    private final OidcDiscovery discovery;
    private final Grants grants;
    private final Sql sql;
    private final ObjectMapper json;
    private final HttpClient http = OutboundClients.trusted(Duration.ofSeconds(5));

    BrowserProvider(PlatformConfig config, OidcConfig oidc, OidcDiscovery discovery, Grants grants, Sql sql,
                    ObjectMapper json) {
        this.config = config;
        this.oidc = oidc;
        this.discovery = discovery;
        this.grants = grants;
        this.sql = sql;
        this.json = json;
    }

    String redirectUri() {
        return config.effectivePublicUrl() + "/signin/callback";
    }

    /** Where the browser goes to sign in for {@code pending}. */
    URI authorizationUrl(PendingSignIn pending) {
        String challenge = CodeChallenge.compute(CodeChallengeMethod.S256, new CodeVerifier(pending.verifier()))
                .getValue();
        URI endpoint;
        String clientId;
        if (oidc.enabled()) {
            endpoint = discovery.document().map(OidcDiscovery.Document::authorizationEndpoint).orElseThrow(() ->
                    new ApiProblem(ProblemCode.UPSTREAM_FAILED, "the identity provider names no authorization endpoint"));
            clientId = oidc.clientId();
        } else {
            registerWebClient();
            endpoint = URI.create(config.effectivePublicUrl() + "/signin/authorize");
            clientId = WEB_CLIENT;
        }
        return UriBuilder.of(endpoint).queryParam("response_type", "code").queryParam("client_id", clientId)
                .queryParam("redirect_uri", redirectUri()).queryParam("scope", "openid email profile")
                .queryParam("state", pending.state()).queryParam("code_challenge", challenge)
                .queryParam("code_challenge_method", "S256").build();
    }

    /** The access token a code is worth; an {@link ApiProblem} when the provider refuses it. */
    String exchange(String code, PendingSignIn pending) {
        if (!oidc.enabled()) {
            try {
                return grants.redeem(code, WEB_CLIENT, redirectUri(), pending.verifier()).accessToken();
            } catch (OAuthFailure f) {
                throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "the sign-in code was refused: "
                        + f.body().errorDescription());
            }
        }
        URI token = discovery.document().map(OidcDiscovery.Document::tokenEndpoint).orElseThrow(() ->
                new ApiProblem(ProblemCode.UPSTREAM_FAILED, "the identity provider names no token endpoint"));
        String form = FormEncoding.encode(Map.of("grant_type", "authorization_code", "code", code,
                "redirect_uri", redirectUri(), "client_id", oidc.clientId(), "code_verifier", pending.verifier()));
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(token).timeout(Duration.ofSeconds(15))
                    .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = json.readTree(r.body());
            if (r.statusCode() != 200 || !body.path("access_token").isTextual()) {
                throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "the identity provider refused the sign-in code ("
                        + r.statusCode() + ")");
            }
            return body.path("access_token").asText();
        } catch (IOException e) {
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, "the identity provider could not be reached");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, "interrupted while reaching the identity provider");
        }
    }

    /** The built-in client of the embedded provider; its redirect follows the public URL if that changes. */
    private void registerWebClient() {
        sql.update("INSERT INTO signin_clients (client_id, client_name, redirect_uris) VALUES (?, ?, ?)"
                + " ON CONFLICT (client_id) DO UPDATE SET redirect_uris = EXCLUDED.redirect_uris",
                List.of(WEB_CLIENT, "Stockade (browser sign-in)", redirectUri()));
    }
}
