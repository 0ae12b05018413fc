package dev.stockade.api.signin;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.OidcVerifier;
import dev.stockade.api.kernel.identity.SignIns;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
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
import io.micronaut.http.uri.UriBuilder;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The embedded provider's authorization endpoint: {@code GET /signin/authorize} checks the request and shows the
 * sign-in form; {@code POST /signin/authorize} checks the form's CSRF token and the password, applies the same
 * sign-in rules as a bearer token (owner emails, direct-access gate), and sends the browser back with a one-time code.
 */
@Controller("/signin/authorize")
@Tag(name = "sign-in")
class AuthorizeController {
    private final Clients clients;
    private final Accounts accounts;
    private final Grants grants;
    private final PlatformConfig config;
    private final OidcConfig oidc;
    private final OidcVerifier rules;
    private final SignIns signIns;
    private final AuditLog audit;
    private final WrongAnswerDelay delay;

    AuthorizeController(Clients clients, Accounts accounts, Grants grants, PlatformConfig config, OidcConfig oidc,
                        OidcVerifier rules, SignIns signIns, AuditLog audit, WrongAnswerDelay delay) {
        this.clients = clients;
        this.accounts = accounts;
        this.grants = grants;
        this.config = config;
        this.oidc = oidc;
        this.rules = rules;
        this.signIns = signIns;
        this.audit = audit;
        this.delay = delay;
    }

    @Get
    @Produces(MediaType.TEXT_HTML)
    @Access(Action.SIGNIN)
    @ExecuteOn(TaskExecutors.BLOCKING)
    MutableHttpResponse<String> form(HttpRequest<?> request) {
        requireEmbedded();
        Map<String, String> query = new HashMap<>();
        for (Map.Entry<String, List<String>> e : request.getParameters().asMap().entrySet()) {
            if (e.getValue().size() != 1) {
                return SignInPages.refused(400, "The sign-in link repeats the parameter `" + e.getKey() + "`.");
            }
            query.put(e.getKey(), e.getValue().get(0));
        }
        AuthorizationRequest ask = AuthorizationRequest.of(query);
        AuthorizationRequest.Checked checked = ask.check(clients, config);
        if (checked instanceof AuthorizationRequest.Valid v) {
            String csrf = Csrf.fresh();
            return SignInPages.login(200, ask.parameters(), csrf, null, URI.create(v.redirectUri()))
                    .cookie(Csrf.cookie(csrf, secure()));
        }
        return refusal(checked);
    }

    @Post
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Access(Action.SIGNIN)
    @ExecuteOn(TaskExecutors.BLOCKING)
    CompletableFuture<MutableHttpResponse<String>> submit(@Body Map<String, String> form,
                                                          @CookieValue(Csrf.COOKIE) @Nullable String csrfCookie) {
        requireEmbedded();
        if (!Csrf.matches(csrfCookie, form.get(Csrf.FIELD))) {
            return CompletableFuture.completedFuture(SignInPages.refused(403, "This form has expired or was sent from"
                    + " another site. Go back to the application and sign in again."));
        }
        AuthorizationRequest ask = AuthorizationRequest.of(form);
        AuthorizationRequest.Checked checked = ask.check(clients, config);
        if (checked instanceof AuthorizationRequest.Valid v) {
            return signIn(ask, v, form.get("email"), form.get("password"), csrfCookie);
        }
        return CompletableFuture.completedFuture(refusal(checked));
    }

    private CompletableFuture<MutableHttpResponse<String>> signIn(AuthorizationRequest ask,
                                                                  AuthorizationRequest.Valid v, String email,
                                                                  String password, String csrf) {
        delay.enter();
        Optional<Accounts.Account> account = accounts.check(email, password);
        if (account.isEmpty()) {
            refused(v, "wrong-password", null);
            return delay.later(() -> SignInPages.login(401, ask.parameters(), csrf, "Wrong email or password.",
                    URI.create(v.redirectUri())));
        }
        Accounts.Account a = account.get();
        try {
            // the operator created the account, so the address counts as verified; local accounts hold no roles
            rules.checkSignIn(a.email(), true, Set.of(), a.id().toString());
        } catch (ApiProblem p) {
            refused(v, p.code().slug(), a);
            return delay.now(SignInPages.refused(403, p.detail()));
        }
        signIns.signIn(config.effectivePublicUrl(), a.id().toString(), a.email(), a.name());
        String code = grants.code(new Grants.Approval(v.client().clientId(), a, v.redirectUri(), v.codeChallenge(),
                v.resource()));
        UriBuilder to = UriBuilder.of(v.redirectUri()).queryParam("code", code)
                .queryParam("iss", config.effectivePublicUrl());
        if (v.state() != null) {
            to.queryParam("state", v.state());
        }
        return delay.now(HttpResponse.<String>seeOther(to.build()).header("Cache-Control", "no-store")
                .header("Referrer-Policy", "no-referrer"));
    }

    private void refused(AuthorizationRequest.Valid v, String reason, @Nullable Accounts.Account who) {
        audit.record(AuditEvent.of(AuditKind.SESSION, "sign-in")
                .by(who == null ? Actor.of("anonymous", null) : Actor.of("user", who.id().toString()))
                .outcome(AuditOutcome.DENIED).detail("reason", reason).detail("clientId", v.client().clientId())
                .build());
    }

    private static MutableHttpResponse<String> refusal(AuthorizationRequest.Checked checked) {
        if (checked instanceof AuthorizationRequest.RefusedHere r) {
            return SignInPages.refused(400, r.message());
        }
        AuthorizationRequest.RefusedThere r = (AuthorizationRequest.RefusedThere) checked;
        UriBuilder to = UriBuilder.of(r.redirectUri()).queryParam("error", r.error())
                .queryParam("error_description", r.description());
        if (r.state() != null) {
            to.queryParam("state", r.state());
        }
        return HttpResponse.<String>seeOther(to.build()).header("Cache-Control", "no-store");
    }

    private void requireEmbedded() {
        if (oidc.enabled()) {
            throw ApiProblem.notFound("the embedded sign-in (this installation signs in through oidc.issuer)");
        }
    }

    private boolean secure() {
        return config.effectivePublicUrl().startsWith("https:");
    }
}
