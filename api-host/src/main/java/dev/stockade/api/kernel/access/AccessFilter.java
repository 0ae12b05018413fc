package dev.stockade.api.kernel.access;

import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.Authenticator;
import dev.stockade.api.kernel.identity.BearerToken;
import dev.stockade.api.kernel.identity.BrowserSession;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.ProtectedResource;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.RouteMatch;
import io.micronaut.web.router.UriRouteMatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one gate every request passes, in this order: enrollment (503 until enrolled, except the routes the spec
 * exempts), authentication (401), and the authorization table (404 across tenants, 403 within). A route without an
 * {@link Access} declaration is refused: nothing is reachable by omission. Every refusal of the authorization table is
 * audited (kind {@code access}, outcome {@code denied}) before it is answered, in the trails {@link AuditHomes} names.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class AccessFilter implements Ordered {
    /** The request attribute holding the caller's {@link Identity}. */
    static final String IDENTITY = "stockade.identity";
    /** The request attribute holding the {@link Grant}. */
    static final String GRANT = "stockade.grant";
    private static final java.util.List<String> API_KEY_HEADERS = java.util.List.of("x-api-key", "api-key");

    private static final Logger LOG = LoggerFactory.getLogger(AccessFilter.class);

    private final WorkGate enrollment;
    private final Authenticator authenticator;
    private final Authorizer authorizer;
    private final Problems problems;
    private final AuditAppender audit;
    private final AuditHomes homes;
    private final PlatformConfig config;
    private final BrowserSession sessions;

    AccessFilter(WorkGate enrollment, Authenticator authenticator, Authorizer authorizer, Problems problems,
                 PlatformConfig config, AuditAppender audit, AuditHomes homes, BrowserSession sessions) {
        this.config = config;
        this.sessions = sessions;
        this.enrollment = enrollment;
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.problems = problems;
        this.audit = audit;
        this.homes = homes;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    HttpResponse<?> filter(HttpRequest<?> request) {
        try {
            Optional<RouteMatch<?>> route = RouteAttributes.getRouteMatch(request);
            // a handshake is judged by the WebSocket table even where an HTTP route shares its path
            Optional<WebSocketRoutes.Match> socket = WebSocketRoutes.match(request);
            if (socket.isPresent()) {
                return authorizeSocket(request, socket.get());
            }
            Map<String, Object> vars = route.orElse(null) instanceof UriRouteMatch<?, ?> u
                    ? u.getVariableValues() : Map.of();
            Action action = route.flatMap(r -> declared(r.getAnnotationMetadata().enumValues(Access.class, Action.class),
                    vars)).orElse(null);
            if (action == null || action.gated()) {
                enrollment.check();
            }
            if (route.isEmpty()) {
                return null; // the router answers 404 or 405 through the error path
            }
            if (action == null) {
                return problems.response(ProblemCode.FORBIDDEN, "this route declares no access rule");
            }
            if (action.isPublic() || action.tunnelTokenOnly()) {
                return null; // a relay route compares the cluster's tunnel token itself (clusters.RelayController)
            }
            Identity caller = authenticate(request, action.acceptsApiKeyHeader(), false);
            if (action.clusterTokenOnly() && !(caller instanceof Identity.ClusterToken)) {
                throw new ApiProblem(ProblemCode.UNAUTHENTICATED,
                        "the cluster proxy accepts only a cluster token issued to a sandbox");
            }
            if (!action.clusterTokenOnly() && caller instanceof Identity.ClusterToken) {
                throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "a cluster token is accepted only by the cluster proxy");
            }
            Grant grant = authorize(request, caller, action, vars);
            request.setAttribute(IDENTITY, caller);
            request.setAttribute(GRANT, grant);
            return null;
        } catch (ApiProblem p) {
            MutableHttpResponse<?> answer = problems.response(p);
            if (p.code() == ProblemCode.UNAUTHENTICATED) {
                answer.header(HttpHeaders.WWW_AUTHENTICATE, challenge(request));
            }
            return answer;
        }
    }

    /**
     * RFC 6750's challenge with RFC 9728's {@code resource_metadata}, so an MCP client learns where to sign in;
     * {@code invalid_token} when a token was presented and refused.
     */
    private String challenge(HttpRequest<?> request) {
        ProtectedResource resource = ProtectedResource.of(config, request.getPath());
        String presented = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
        return "Bearer resource_metadata=\"" + resource.metadataUrl(config) + "\""
                + (presented == null || presented.isBlank() ? "" : ", error=\"invalid_token\"");
    }

    /**
     * The action a route declares: its only one, or, for a method mapped to several paths, the one whose scope
     * variable the matched path names (a path that names none takes the installation-wide action). None or more than
     * one is no rule at all, and the route is refused.
     */
    static Optional<Action> declared(Action[] declared, Map<String, Object> pathVariables) {
        if (declared.length == 1) {
            return Optional.of(declared[0]);
        }
        List<Action> named = Arrays.stream(declared)
                .filter(a -> a.scope().variable() != null && pathVariables.containsKey(a.scope().variable())).toList();
        if (named.isEmpty()) {
            named = Arrays.stream(declared).filter(a -> a.scope() == Scope.NONE).toList();
        }
        return named.size() == 1 ? Optional.of(named.get(0)) : Optional.empty();
    }

    /** A WebSocket handshake: the router matches it apart from HTTP routes, so its action comes from the table. */
    private HttpResponse<?> authorizeSocket(HttpRequest<?> request, WebSocketRoutes.Match socket) {
        if (socket.action().gated()) {
            enrollment.check();
        }
        Identity caller = authenticate(request, socket.action().acceptsApiKeyHeader(), true);
        if (caller instanceof Identity.ClusterToken) {
            throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "a cluster token is accepted only by the cluster proxy");
        }
        request.setAttribute(IDENTITY, caller);
        request.setAttribute(GRANT, authorize(request, caller, socket.action(), socket.variables()));
        return null;
    }

    /** The table's answer for {@code caller}; a refusal is audited before it is thrown. */
    private Grant authorize(HttpRequest<?> request, Identity caller, Action action, Map<String, Object> vars) {
        try {
            return authorizer.authorize(caller, action, vars);
        } catch (ApiProblem refused) {
            int status = refused.code().status().getCode();
            if (status == 403 || status == 404) { // a malformed id (400) is bad input, not a refusal
                recordRefusal(request, caller, action, vars, refused);
            }
            throw refused;
        }
    }

    /**
     * One {@code access} entry per trail the refusal belongs in (the caller's own organizations, never the target's
     * when the caller is a stranger to it). The refusal stands even when its entry cannot be stored: failing open is
     * not an option, and the appender's own error is logged.
     */
    private void recordRefusal(HttpRequest<?> request, Identity caller, Action action, Map<String, Object> vars,
                               ApiProblem refused) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("method", request.getMethodName());
        details.put("path", request.getPath());
        details.put("status", refused.code().status().getCode());
        details.put("code", refused.code().code());
        List<AuditEvent> entries = new ArrayList<>();
        for (UUID org : homes.of(caller, action, vars)) {
            entries.add(AuditEvent.of(AuditKind.ACCESS, action.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .org(org).outcome(AuditOutcome.DENIED).by(caller)
                    .target(request.getMethodName() + " " + request.getPath()).details(details).build());
        }
        try {
            audit.appendAll(entries).join();
        } catch (RuntimeException e) {
            LOG.error("the audit entry of a refused {} {} was not stored", request.getMethodName(), request.getPath(), e);
        }
    }

    /**
     * The caller behind the request's bearer token; with {@code apiKeyHeaders}, a request without an Authorization
     * header may carry its token as an SDK's API key ({@code x-api-key}, then {@code api-key}). With neither, a
     * person's browser session (the admin UI) with its CSRF token, sent as a header, or on a WebSocket handshake
     * (where a page cannot set headers) as the {@code csrf} query parameter.
     */
    private Identity authenticate(HttpRequest<?> request, boolean apiKeyHeaders, boolean handshake) {
        String header = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
        if ((header == null || header.isBlank()) && apiKeyHeaders) {
            for (String name : API_KEY_HEADERS) {
                String key = request.getHeaders().get(name);
                if (key != null && !key.isBlank()) {
                    return authenticator.authenticate(key.strip(), ProtectedResource.of(config, request.getPath()));
                }
            }
        }
        if (header == null || header.isBlank()) {
            Optional<String> session = request.getCookies().findCookie(BrowserSession.COOKIE).map(c -> c.getValue());
            if (session.isPresent()) {
                return browserSession(request, session.get(), handshake);
            }
            throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "a bearer token is required");
        }
        String token = BearerToken.of(header).orElseThrow(() -> new ApiProblem(ProblemCode.UNAUTHENTICATED,
                "the Authorization header must be `Bearer <token>`"));
        return authenticator.authenticate(token, ProtectedResource.of(config, request.getPath()));
    }

    private Identity.User browserSession(HttpRequest<?> request, String session, boolean handshake) {
        String csrf = request.getHeaders().get(BrowserSession.CSRF_HEADER);
        if (csrf == null && handshake) {
            csrf = request.getParameters().get("csrf");
        }
        if (!BrowserSession.csrfMatches(session, csrf)) {
            throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "a browser session's request needs the page's CSRF token"
                    + " in the " + BrowserSession.CSRF_HEADER + " header; without one, send a bearer token");
        }
        return sessions.user(session).orElseThrow(() -> new ApiProblem(ProblemCode.UNAUTHENTICATED,
                "the browser session has ended; sign in again"));
    }
}
