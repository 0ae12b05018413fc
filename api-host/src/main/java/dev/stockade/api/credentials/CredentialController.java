package dev.stockade.api.credentials;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.stockade.api.credentials.CredentialService.Credential;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Project credentials ({@code /v1/projects/{projectId}/credentials}); no route returns a secret. */
@Controller("/v1/projects/{projectId}/credentials")
@Tag(name = "governance")
record CredentialController(CredentialService service) {
    @Post
    @Status(HttpStatus.CREATED)
    @Access(Action.CREDENTIALS_WRITE)
    CredentialView create(HttpRequest<?> request, String projectId, @Body CredentialInput body) {
        return view(service.create(Caller.identity(request), Caller.grant(request), body));
    }

    @Get
    @Access(Action.CREDENTIALS_READ)
    Credentials list(HttpRequest<?> request, String projectId) {
        return page(service.list(Caller.grant(request)));
    }

    @Get("/{credentialId}")
    @Access(Action.CREDENTIALS_READ)
    CredentialView get(HttpRequest<?> request, String projectId, String credentialId) {
        return view(service.get(Caller.grant(request), Authorizer.uuid("credentialId", credentialId)));
    }

    @Patch("/{credentialId}")
    @Access(Action.CREDENTIALS_WRITE)
    CredentialView update(HttpRequest<?> request, String projectId, String credentialId,
                               @Body CredentialInput body) {
        return view(service.update(Caller.identity(request), Caller.grant(request),
                Authorizer.uuid("credentialId", credentialId), body));
    }

    @Delete("/{credentialId}")
    @Access(Action.CREDENTIALS_WRITE)
    HttpResponse<Void> delete(HttpRequest<?> request, String projectId, String credentialId) {
        service.delete(Caller.identity(request), Caller.grant(request), Authorizer.uuid("credentialId", credentialId));
        return HttpResponse.noContent();
    }

    /**
     * A credential as the API shows it: never its secret. {@code sandboxId} (a credential a sandbox owns) and
     * {@code headerFormat} are left out when they do not apply.
     */
    @Introspected
    public record CredentialView(UUID id, UUID projectId,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID sandboxId, String name,
                                 List<String> domains,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String headerFormat,
                                 Instant createdAt, Instant updatedAt) {
    }

    /** A project's credentials. */
    @Introspected
    public record Credentials(List<CredentialView> items) {
    }

    static CredentialView view(Credential c) {
        return new CredentialView(c.id(), c.projectId(), c.sandboxId(), c.name(), c.domains(), c.headerFormat(),
                c.createdAt(), c.updatedAt());
    }

    static Credentials page(List<Credential> credentials) {
        return new Credentials(credentials.stream().map(CredentialController::view).toList());
    }
}
