package dev.stockade.api.signin;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.Authenticator;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.CookieValue;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * How an operator of {@code stockade serve} gets sign-in accounts on the embedded provider: {@code /signin/accounts}
 * is a form that takes the installation-owner token (already written to the data directory at first start, mode 0600)
 * as proof, so no new secret is printed or logged. The first start without accounts prints where the form is.
 */
@Controller("/signin/accounts")
@Tag(name = "sign-in")
class AccountController {
    private final Accounts accounts;
    private final Authenticator authenticator;
    private final PlatformConfig config;
    private final OidcConfig oidc;
    private final AuditLog audit;
    private final WrongAnswerDelay delay;

    AccountController(Accounts accounts, Authenticator authenticator, PlatformConfig config, OidcConfig oidc,
                      AuditLog audit, WrongAnswerDelay delay) {
        this.accounts = accounts;
        this.authenticator = authenticator;
        this.config = config;
        this.oidc = oidc;
        this.audit = audit;
        this.delay = delay;
    }

    @EventListener
    void onStartup(StartupEvent event) {
        if (!oidc.enabled() && !accounts.any()) {
            System.out.println("Stockade: sign-in is the embedded provider (" + SignInPages.EMBEDDED_LABEL + ")");
            System.out.println("  Create your account at " + config.effectivePublicUrl() + "/signin/accounts with"
                    + " the owner token above, then sign in at " + config.effectivePublicUrl() + "/");
        }
    }

    @Get
    @Produces(MediaType.TEXT_HTML)
    @Access(Action.SIGNIN)
    MutableHttpResponse<String> form() {
        requireEmbedded();
        String csrf = Csrf.fresh();
        return SignInPages.accountForm(200, csrf, null, null).cookie(Csrf.cookie(csrf, secure()));
    }

    @Post
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Access(Action.SIGNIN)
    @ExecuteOn(TaskExecutors.BLOCKING)
    CompletableFuture<MutableHttpResponse<String>> create(@Body Map<String, String> form,
                                                          @CookieValue(Csrf.COOKIE) @Nullable String csrf) {
        requireEmbedded();
        if (!Csrf.matches(csrf, form.get(Csrf.FIELD))) {
            return CompletableFuture.completedFuture(SignInPages.refused(403, "This form has expired or was sent from"
                    + " another site. Open it again."));
        }
        delay.enter();
        Optional<Identity> owner = owner(form.get("ownerToken"));
        if (owner.isEmpty()) {
            return delay.later(() -> SignInPages.accountForm(403, csrf, "That is not this installation's owner token.",
                    null));
        }
        try {
            Accounts.Account a = accounts.create(form.get("email"), form.get("name"), form.get("password"));
            audit.record(AuditEvent.of(AuditKind.SESSION, "account-create").by(owner.get()).target(a.id().toString())
                    .build());
            return delay.now(SignInPages.accountForm(201, csrf, null, "Account created for " + a.email()
                    + ". Sign in at " + config.effectivePublicUrl() + "/"));
        } catch (ApiProblem p) {
            String why = p.errors().isEmpty() ? p.detail() : p.errors().get(0).detail();
            return delay.now(SignInPages.accountForm(400, csrf, why, null));
        }
    }

    private Optional<Identity> owner(String token) {
        if (token == null || token.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(authenticator.authenticate(token.strip())).filter(Identity.Owner.class::isInstance);
        } catch (ApiProblem refused) {
            return Optional.empty();
        }
    }

    private void requireEmbedded() {
        if (oidc.enabled()) {
            throw new ApiProblem(ProblemCode.NOT_FOUND, "local accounts exist only with the embedded sign-in");
        }
    }

    private boolean secure() {
        return config.effectivePublicUrl().startsWith("https:");
    }
}
