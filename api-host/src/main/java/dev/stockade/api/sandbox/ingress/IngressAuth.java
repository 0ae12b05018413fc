package dev.stockade.api.sandbox.ingress;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.identity.Authenticator;
import dev.stockade.api.kernel.identity.BearerToken;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.sandbox.Sandbox;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.cookie.Cookie;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Who may call a sandbox's private port (spec, Authentication rule 6): a bearer token of a project member, sent from
 * any origin that is the sandbox's own or listed in {@code sandboxIngress.corsOrigins}; or the session cookie
 * ({@value #SESSION_COOKIE}), which counts only on requests from the sandbox's own private-port origins (a page of
 * another site cannot ride on it). The sandbox learns who called from {@code x-forwarded-user-id} and the
 * percent-encoded {@code x-forwarded-user-display-name}; it never sees the caller's token.
 */
@Singleton
record IngressAuth(Authenticator authenticator, Authorizer authorizer, IngressSettings settings) {
    /** The platform session's cookie, scoped by the platform to the ingress domain. */
    static final String SESSION_COOKIE = "stockade_session";

    /** The caller of a private port, as the sandbox is told. */
    record Caller(String userId, String displayName) {
        Map<String, String> headers() {
            return Map.of("x-forwarded-user-id", userId, "x-forwarded-user-display-name",
                    URLEncoder.encode(displayName, StandardCharsets.UTF_8).replace("+", "%20"));
        }
    }

    /** Whether {@code origin} is one of this sandbox's own exposed-port origins. */
    boolean ownOrigin(String origin, Sandbox sandbox) {
        return origin != null && settings.originLabel(origin).flatMap(Ingress::slugOf)
                .filter(sandbox.slug()::equals).isPresent();
    }

    /** Whether a page at {@code origin} may call this sandbox's private ports with a bearer token. */
    boolean originAllowed(String origin, Sandbox sandbox) {
        return origin == null || ownOrigin(origin, sandbox) || settings.corsAllowed(origin);
    }

    /** The caller, or the refusal (401 without a usable credential, 403/404 without access to the project). */
    Caller authorize(HttpRequest<?> request, Sandbox sandbox) {
        String origin = request.getHeaders().get(HttpHeaders.ORIGIN);
        String token = bearer(request).orElse(null);
        if (token != null && !originAllowed(origin, sandbox)) {
            throw new ApiProblem(ProblemCode.FORBIDDEN, "origin `" + origin + "` may not call this private port"
                    + " (sandboxIngress.corsOrigins)");
        }
        if (token == null && (origin == null ? sameSiteNavigation(request) : ownOrigin(origin, sandbox))) {
            token = request.getCookies().findCookie(SESSION_COOKIE).map(Cookie::getValue).orElse(null);
        }
        if (token == null) {
            throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "this port is private: send a bearer token of a"
                    + " member of the sandbox's project");
        }
        Identity caller = authenticator.authenticate(token);
        authorizer.authorize(caller, Action.SANDBOX_INGRESS, Map.of("projectId", sandbox.projectId().toString()));
        return new Caller(caller.actorId(), displayName(caller));
    }

    /** Without an Origin header the cookie counts unless the browser says the request came from another site. */
    private static boolean sameSiteNavigation(HttpRequest<?> request) {
        String site = request.getHeaders().get("Sec-Fetch-Site");
        return site == null || site.equals("same-origin") || site.equals("none");
    }

    private static Optional<String> bearer(HttpRequest<?> request) {
        return BearerToken.of(request.getHeaders().get(HttpHeaders.AUTHORIZATION));
    }

    private static String displayName(Identity caller) {
        if (caller instanceof Identity.User u) {
            return u.name() != null && !u.name().isBlank() ? u.name() : u.email();
        }
        if (caller instanceof Identity.ApiToken t) {
            return t.name();
        }
        return caller.type();
    }
}
