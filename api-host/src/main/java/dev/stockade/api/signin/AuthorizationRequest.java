package dev.stockade.api.signin;

import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.ProtectedResource;
import io.micronaut.core.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An authorization request (RFC 6749 section 4.1.1 with PKCE and RFC 8707's {@code resource}) as the browser brings
 * it, first in the query of {@code GET /signin/authorize}, then in the hidden fields of the sign-in form.
 */
record AuthorizationRequest(@Nullable String responseType, @Nullable String clientId, @Nullable String redirectUri,
                            @Nullable String codeChallenge, @Nullable String codeChallengeMethod,
                            @Nullable String state, @Nullable String resource, @Nullable String scope) {

    /** What checking the request found: sign-in may go on, or it is refused on a page or back at the client. */
    sealed interface Checked {
    }

    /** A request the sign-in form may continue. */
    record Valid(Clients.Client client, String redirectUri, String codeChallenge, ProtectedResource resource,
                 @Nullable String state) implements Checked {
    }

    /** Refused without a redirect: the client or its redirect URI is unknown, so nothing proves where to send it. */
    record RefusedHere(String message) implements Checked {
    }

    /** Refused back at the client's redirect URI with an OAuth error (RFC 6749 section 4.1.2.1). */
    record RefusedThere(String redirectUri, String error, String description, @Nullable String state)
            implements Checked {
    }

    static AuthorizationRequest of(Map<String, String> p) {
        return new AuthorizationRequest(p.get("response_type"), p.get("client_id"), p.get("redirect_uri"),
                p.get("code_challenge"), p.get("code_challenge_method"), p.get("state"), p.get("resource"),
                p.get("scope"));
    }

    /** The parameters again, for the form's hidden fields. */
    Map<String, String> parameters() {
        Map<String, String> out = new LinkedHashMap<>();
        put(out, "response_type", responseType);
        put(out, "client_id", clientId);
        put(out, "redirect_uri", redirectUri);
        put(out, "code_challenge", codeChallenge);
        put(out, "code_challenge_method", codeChallengeMethod);
        put(out, "state", state);
        put(out, "resource", resource);
        put(out, "scope", scope);
        return out;
    }

    Checked check(Clients clients, PlatformConfig config) {
        Optional<Clients.Client> client = clients.find(clientId);
        if (client.isEmpty()) {
            return new RefusedHere("This sign-in link names an application that is not registered here.");
        }
        if (redirectUri == null || !client.get().redirectsTo(redirectUri)) {
            return new RefusedHere("This sign-in link sends you to an address its application did not register.");
        }
        if (!"code".equals(responseType)) {
            return new RefusedThere(redirectUri, "unsupported_response_type", "only response_type=code", state);
        }
        if (!"S256".equals(codeChallengeMethod) || codeChallenge == null
                || !codeChallenge.matches("[A-Za-z0-9_-]{43}")) {
            return new RefusedThere(redirectUri, "invalid_request", "PKCE with code_challenge_method=S256 is required"
                    + " (plain is refused)", state);
        }
        if (state != null && state.length() > 1024) {
            return new RefusedThere(redirectUri, "invalid_request", "state is longer than 1024 characters", null);
        }
        Optional<ProtectedResource> target = resource == null ? Optional.of(ProtectedResource.rest(config))
                : ProtectedResource.named(config, resource);
        if (target.isEmpty()) {
            return new RefusedThere(redirectUri, "invalid_target", "resource names none of this platform's"
                    + " resources", state);
        }
        return new Valid(client.get(), redirectUri, codeChallenge, target.get(), state);
    }

    private static void put(Map<String, String> out, String key, @Nullable String value) {
        if (value != null) {
            out.put(key, value);
        }
    }
}
