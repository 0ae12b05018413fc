package dev.stockade.api.signin;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.Authenticator;
import dev.stockade.api.kernel.identity.BrowserSession;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.ProtectedResource;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.tenancy.InvitationService;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.CookieValue;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * Browser sign-in: {@code GET /} sends a signed-in person to the admin UI or starts a sign-in at the identity provider;
 * {@code GET /signin/callback} takes the code back, checks it exactly as a bearer token is checked (owner emails,
 * direct-access gate), accepts the person's open invitations and opens a session; {@code POST /signout} ends it.
 */
@Controller
@Tag(name = "sign-in")
@ExecuteOn(TaskExecutors.BLOCKING)
class BrowserController {
    static final String SESSION_COOKIE = BrowserSession.COOKIE;
    /** Where a signed-in person lands: the admin UI (package {@code ui}), which sends anyone else back here. */
    static final String UI_HOME = "/ui/";

    private final BrowserProvider provider;
    private final BrowserSessions sessions;
    private final Authenticator authenticator;
    private final InvitationService invitations;
    private final SecretBox box;
    private final PlatformConfig config;
    private final AuditLog audit;
    private final Clock clock;

    BrowserController(BrowserProvider provider, BrowserSessions sessions, Authenticator authenticator,
                      InvitationService invitations, SecretBox box, PlatformConfig config, AuditLog audit, Clock clock) {
        this.provider = provider;
        this.sessions = sessions;
        this.authenticator = authenticator;
        this.invitations = invitations;
        this.box = box;
        this.config = config;
        this.audit = audit;
        this.clock = clock;
    }

    @Get(produces = MediaType.TEXT_HTML)
    @Access(Action.SIGNIN)
    MutableHttpResponse<String> home(@CookieValue(SESSION_COOKIE) @Nullable String session) {
        if (sessions.find(session).isPresent()) {
            return HttpResponse.<String>seeOther(java.net.URI.create(UI_HOME)).header("Cache-Control", "no-store");
        }
        PendingSignIn pending = PendingSignIn.start(clock.instant());
        return HttpResponse.<String>seeOther(provider.authorizationUrl(pending))
                .cookie(Cookie.of(PendingSignIn.COOKIE, pending.seal(box)).path("/signin/callback").httpOnly(true)
                        .sameSite(SameSite.Lax).secure(secure()).maxAge(600))
                .header("Cache-Control", "no-store");
    }

    @Get(uris = "/signin/callback", produces = MediaType.TEXT_HTML)
    @Access(Action.SIGNIN)
    MutableHttpResponse<String> callback(@QueryValue @Nullable String code, @QueryValue @Nullable String state,
                                         @QueryValue @Nullable String error,
                                         @CookieValue(PendingSignIn.COOKIE) @Nullable String sealed) {
        Optional<PendingSignIn> pending = PendingSignIn.open(box, sealed, clock.instant());
        if (pending.isEmpty() || state == null || !pending.get().state().equals(state)) {
            return forget(BrowserPages.problem(400, "This sign-in did not start in this browser, or took longer than"
                    + " ten minutes. Start again."));
        }
        if (error != null || code == null) {
            return forget(BrowserPages.problem(401, "The identity provider did not sign you in ("
                    + (error == null ? "no code" : error) + ")."));
        }
        Identity.User user;
        try {
            String token = provider.exchange(code, pending.get());
            Identity id = authenticator.authenticate(token, ProtectedResource.rest(config));
            if (!(id instanceof Identity.User u)) {
                return forget(BrowserPages.problem(403, "Only people sign in here."));
            }
            user = u;
        } catch (ApiProblem p) {
            audit.record(AuditEvent.of(AuditKind.SESSION, "browser-sign-in").by(Actor.of("anonymous", null))
                    .outcome(AuditOutcome.DENIED).detail("reason", p.code().slug()).build());
            return forget(BrowserPages.problem(p.code().status().getCode(), p.detail()));
        }
        invitations.listMine(user).forEach(i -> invitations.accept(user, i.id()));
        String id = sessions.open(user);
        audit.record(AuditEvent.of(AuditKind.SESSION, "browser-sign-in").by(user).target(user.userId().toString())
                .build());
        return forget(HttpResponse.<String>seeOther(java.net.URI.create("/"))
                .cookie(Cookie.of(SESSION_COOKIE, id).path("/").httpOnly(true).sameSite(SameSite.Lax).secure(secure())
                        .maxAge(BrowserSessions.LIFETIME))
                .header("Cache-Control", "no-store"));
    }

    @Post(uris = "/signout", produces = MediaType.TEXT_HTML)
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Access(Action.SIGNIN)
    MutableHttpResponse<String> signOut(@Body Map<String, String> form,
                                        @CookieValue(SESSION_COOKIE) @Nullable String session) {
        if (!BrowserSession.csrfMatches(session, form.get(Csrf.FIELD))) {
            // 400, not 403: nothing is refused to the person, the form itself is stale or forged
            return BrowserPages.problem(400, "This sign-out form has expired or was sent from another site.");
        }
        sessions.find(session).ifPresent(s -> audit.record(AuditEvent.of(AuditKind.SESSION, "sign-out")
                .by(Actor.of("user", s.userId().toString())).target(s.userId().toString()).build()));
        sessions.revoke(session);
        return BrowserPages.signedOut().cookie(Cookie.of(SESSION_COOKIE, "").path("/").maxAge(0));
    }

    private static MutableHttpResponse<String> forget(MutableHttpResponse<String> r) {
        return r.cookie(Cookie.of(PendingSignIn.COOKIE, "").path("/signin/callback").maxAge(0));
    }

    private boolean secure() {
        return config.effectivePublicUrl().startsWith("https:");
    }
}
