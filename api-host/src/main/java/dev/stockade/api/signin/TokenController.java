package dev.stockade.api.signin;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The embedded provider's back channel: {@code POST /signin/token} (authorization code with PKCE, refresh token with
 * rotation), {@code POST /signin/revoke} (RFC 7009) and {@code POST /signin/register} (RFC 7591). Failures answer in
 * OAuth's format ({@link OAuthFailure}), which OAuth clients read.
 */
@Controller("/signin")
@Tag(name = "sign-in")
@ExecuteOn(TaskExecutors.BLOCKING)
class TokenController {
    private final Grants grants;
    private final Clients clients;
    private final OidcConfig oidc;
    private final RegistrationLimit limit;

    TokenController(Grants grants, Clients clients, OidcConfig oidc, RegistrationLimit limit) {
        this.limit = limit;
        this.grants = grants;
        this.clients = clients;
        this.oidc = oidc;
    }

    @Post("/token")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Access(Action.SIGNIN)
    MutableHttpResponse<?> token(@Body Map<String, String> form) {
        return answer(HttpStatus.OK, () -> {
            String grant = form.get("grant_type");
            if ("authorization_code".equals(grant)) {
                return grants.redeem(form.get("code"), form.get("client_id"), form.get("redirect_uri"),
                        form.get("code_verifier"));
            }
            if ("refresh_token".equals(grant)) {
                return grants.refresh(form.get("refresh_token"), form.get("client_id"));
            }
            throw new OAuthFailure(400, "unsupported_grant_type", "only authorization_code and refresh_token");
        });
    }

    @Post("/revoke")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Access(Action.SIGNIN)
    MutableHttpResponse<?> revoke(@Body Map<String, String> form) {
        return answer(HttpStatus.OK, () -> {
            grants.revoke(form.get("token"));
            return null;
        });
    }

    @Post("/register")
    @Consumes(MediaType.APPLICATION_JSON)
    @Access(Action.SIGNIN)
    MutableHttpResponse<?> register(HttpRequest<?> request, @Nullable @Body String body) {
        return answer(HttpStatus.CREATED, () -> {
            limit.admit(request.getRemoteAddress().getAddress().getHostAddress());
            return clients.register(body);
        });
    }

    private MutableHttpResponse<?> answer(HttpStatus ok, Supplier<Object> work) {
        if (oidc.enabled()) {
            throw ApiProblem.notFound("the embedded sign-in (this installation signs in through oidc.issuer)");
        }
        try {
            Object body = work.get();
            MutableHttpResponse<Object> r = HttpResponse.status(ok).header("Cache-Control", "no-store")
                    .header("Pragma", "no-cache");
            return body == null ? r : r.contentType(MediaType.APPLICATION_JSON_TYPE).body(body);
        } catch (OAuthFailure f) {
            MutableHttpResponse<Object> r = HttpResponse.status(HttpStatus.valueOf(f.status()))
                    .contentType(MediaType.APPLICATION_JSON_TYPE).header("Cache-Control", "no-store");
            if (f.retryAfterSeconds() > 0) {
                r.header("Retry-After", Long.toString(f.retryAfterSeconds()));
            }
            return r.body(f.body());
        }
    }
}
