package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.tenancy.Requests;
import dev.stockade.api.tenancy.TokenService;
import dev.stockade.api.tenancy.Views;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** API tokens ({@code /orgs/{orgId}/api-tokens}, {@code /api-tokens/{tokenId}}) and sandbox tokens. */
@Controller("/v1")
@Tag(name = "tokens")
class TokenController {
    private final TokenService tokens;

    TokenController(TokenService tokens) {
        this.tokens = tokens;
    }

    @Post("/orgs/{orgId}/api-tokens")
    @Status(HttpStatus.CREATED)
    @Access(Action.API_TOKENS_MANAGE)
    Views.CreatedToken createApiToken(HttpRequest<?> request, String orgId, @Valid @Body Requests.CreateToken body) {
        var m = tokens.createApiToken(Caller.identity(request), Caller.grant(request).orgId(), body.name(), body.expiresAt());
        return Views.CreatedToken.of(Views.TokenView.of(m.row()), m.token());
    }

    @Get("/orgs/{orgId}/api-tokens")
    @Access(Action.API_TOKENS_MANAGE)
    Views.Tokens listApiTokens(HttpRequest<?> request, String orgId) {
        return new Views.Tokens(tokens.listApiTokens(Caller.grant(request).orgId()).stream().map(Views.TokenView::of)
                .toList());
    }

    @Get("/api-tokens/{tokenId}")
    @Access(Action.API_TOKEN_READ)
    Views.TokenView getApiToken(String tokenId) {
        return Views.TokenView.of(tokens.getApiToken(Authorizer.uuid("tokenId", tokenId)));
    }

    @Delete("/api-tokens/{tokenId}")
    @Access(Action.API_TOKEN_REVOKE)
    HttpResponse<Void> revokeApiToken(HttpRequest<?> request, String tokenId) {
        tokens.revokeApiToken(Caller.identity(request), Caller.grant(request), Authorizer.uuid("tokenId", tokenId));
        return HttpResponse.noContent();
    }

    @Post("/projects/{projectId}/sandbox-tokens")
    @Status(HttpStatus.CREATED)
    @Access(Action.SANDBOX_TOKENS_MANAGE)
    Views.CreatedToken createSandboxToken(HttpRequest<?> request, String projectId,
                                          @Valid @Body Requests.CreateToken body) {
        var m = tokens.createSandboxToken(Caller.identity(request), Caller.grant(request), body.name(), body.expiresAt());
        return Views.CreatedToken.of(Views.TokenView.of(m.row()), m.token());
    }

    @Get("/projects/{projectId}/sandbox-tokens")
    @Access(Action.SANDBOX_TOKENS_MANAGE)
    Views.Tokens listSandboxTokens(HttpRequest<?> request, String projectId) {
        return new Views.Tokens(tokens.listSandboxTokens(Caller.grant(request).projectId()).stream()
                .map(Views.TokenView::of).toList());
    }

    @Delete("/sandbox-tokens/{id}")
    @Access(Action.SANDBOX_TOKEN_REVOKE)
    HttpResponse<Void> revokeSandboxToken(HttpRequest<?> request, String id) {
        tokens.revokeSandboxToken(Caller.identity(request), Caller.grant(request), Authorizer.uuid("id", id));
        return HttpResponse.noContent();
    }

    @Post("/proxy-tokens")
    @Status(HttpStatus.CREATED)
    @Access(Action.PROXY_TOKENS_MANAGE)
    Views.CreatedToken createProxyToken(HttpRequest<?> request, @Valid @Body Requests.CreateProxyToken body) {
        var m = tokens.createProxyToken(Caller.identity(request), body.name());
        return Views.CreatedToken.of(Views.TokenView.of(m.row()), m.token());
    }

    @Get("/proxy-tokens")
    @Access(Action.PROXY_TOKENS_MANAGE)
    Views.Tokens listProxyTokens() {
        return new Views.Tokens(tokens.listProxyTokens().stream().map(Views.TokenView::of).toList());
    }

    @Delete("/proxy-tokens/{tokenId}")
    @Access(Action.PROXY_TOKENS_MANAGE)
    HttpResponse<Void> revokeProxyToken(HttpRequest<?> request, String tokenId) {
        tokens.revokeProxyToken(Caller.identity(request), Authorizer.uuid("tokenId", tokenId));
        return HttpResponse.noContent();
    }
}
