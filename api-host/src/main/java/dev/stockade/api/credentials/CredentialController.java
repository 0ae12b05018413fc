package dev.stockade.api.credentials;

import dev.stockade.api.credentials.CredentialService.Credential;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Project credentials ({@code /v1/projects/{projectId}/credentials}); no route returns a secret. */
@Controller("/v1/projects/{projectId}/credentials")
@Tag(name = "governance")
class CredentialController {
    private final CredentialService service;

    CredentialController(CredentialService service) {
        this.service = service;
    }

    @Post
    @Status(HttpStatus.CREATED)
    @Access(Action.CREDENTIALS_WRITE)
    Map<String, Object> create(HttpRequest<?> request, String projectId, @Body CredentialInput body) {
        return view(service.create(Caller.identity(request), Caller.grant(request), body));
    }

    @Get
    @Access(Action.CREDENTIALS_READ)
    Map<String, Object> list(HttpRequest<?> request, String projectId) {
        List<Map<String, Object>> items = service.list(Caller.grant(request)).stream()
                .map(CredentialController::view).toList();
        return Map.of("items", items);
    }

    @Get("/{credentialId}")
    @Access(Action.CREDENTIALS_READ)
    Map<String, Object> get(HttpRequest<?> request, String projectId, String credentialId) {
        return view(service.get(Caller.grant(request), Authorizer.uuid("credentialId", credentialId)));
    }

    @Patch("/{credentialId}")
    @Access(Action.CREDENTIALS_WRITE)
    Map<String, Object> update(HttpRequest<?> request, String projectId, String credentialId,
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

    static Map<String, Object> view(Credential c) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", c.id());
        out.put("projectId", c.projectId());
        if (c.sandboxId() != null) {
            out.put("sandboxId", c.sandboxId());
        }
        out.put("name", c.name());
        out.put("domains", c.domains());
        if (c.headerFormat() != null) {
            out.put("headerFormat", c.headerFormat());
        }
        out.put("createdAt", c.createdAt().toString());
        out.put("updatedAt", c.updatedAt().toString());
        return out;
    }
}
