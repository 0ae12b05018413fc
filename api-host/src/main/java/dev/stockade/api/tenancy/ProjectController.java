package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.identity.ClusterTokens;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.util.List;

/** Projects, project members and project signing keys. */
@Controller("/v1")
@Tag(name = "projects")
class ProjectController {
    private final ProjectService service;
    private final ClusterTokens keys;

    ProjectController(ProjectService service, ClusterTokens keys) {
        this.service = service;
        this.keys = keys;
    }

    @Post("/orgs/{orgId}/projects")
    @Status(HttpStatus.CREATED)
    @Access(Action.PROJECT_CREATE)
    Views.ProjectView create(HttpRequest<?> request, String orgId, @Valid @Body Requests.CreateProject body) {
        return Views.ProjectView.of(service.create(Caller.identity(request), Caller.grant(request).orgId(), body));
    }

    @Get("/orgs/{orgId}/projects")
    @Access(Action.PROJECT_LIST)
    Views.Projects list(HttpRequest<?> request, String orgId) {
        return new Views.Projects(service.list(Caller.identity(request), Caller.grant(request)).stream()
                .map(Views.ProjectView::of).toList());
    }

    @Get("/projects/{projectId}")
    @Access(Action.PROJECT_READ)
    Views.ProjectView get(HttpRequest<?> request, String projectId) {
        return Views.ProjectView.of(service.get(Caller.grant(request).projectId()));
    }

    @Patch("/projects/{projectId}")
    @Access(Action.PROJECT_UPDATE)
    Views.ProjectView update(HttpRequest<?> request, String projectId, @Valid @Body Requests.UpdateProject body) {
        return Views.ProjectView.of(service.update(Caller.identity(request), Caller.grant(request), body));
    }

    @Delete("/projects/{projectId}")
    @Access(Action.PROJECT_DELETE)
    HttpResponse<Void> delete(HttpRequest<?> request, String projectId) {
        service.delete(Caller.identity(request), Caller.grant(request));
        return HttpResponse.noContent();
    }

    @Post("/projects/{projectId}/rotate-keys")
    @Access(Action.PROJECT_ROTATE_KEYS)
    Views.RotatedKey rotateKeys(HttpRequest<?> request, String projectId) {
        return new Views.RotatedKey(service.rotateKeys(Caller.identity(request), Caller.grant(request)));
    }

    /** The project's active public key (JWK) and the keys still accepted. */
    @Get("/projects/{projectId}/public-key")
    @Access(Action.PROJECT_KEYS_READ)
    Views.PublicKey publicKey(String projectId) {
        List<Views.Jwk> published = jwks(projectId);
        return new Views.PublicKey(published.isEmpty() ? Views.Jwk.NONE : published.get(0), "ES256");
    }

    @Get("/projects/{projectId}/.well-known/jwks.json")
    @Access(Action.PROJECT_KEYS_READ)
    Views.JwkSet jwksDocument(String projectId) {
        return new Views.JwkSet(jwks(projectId));
    }

    private List<Views.Jwk> jwks(String projectId) {
        return keys.published(dev.stockade.api.kernel.access.Authorizer.uuid("projectId", projectId)).stream()
                .map(Views.Jwk::of).toList();
    }

    @Get("/projects/{projectId}/members")
    @Access(Action.PROJECT_MEMBERS_READ)
    Views.ProjectMembers members(HttpRequest<?> request, String projectId) {
        return new Views.ProjectMembers(service.members(Caller.grant(request).projectId()));
    }

    @Put("/projects/{projectId}/members/users/{userId}")
    @Access(Action.PROJECT_MEMBERS_WRITE)
    HttpResponse<Void> setUser(HttpRequest<?> request, String projectId, String userId,
                               @Valid @Body Requests.SetRole body) {
        Grant g = Caller.grant(request);
        service.setMember(Caller.identity(request), g, "user", Ids.of("userId", userId), body.role().name());
        return HttpResponse.noContent();
    }

    @Delete("/projects/{projectId}/members/users/{userId}")
    @Access(Action.PROJECT_MEMBERS_WRITE)
    HttpResponse<Void> removeUser(HttpRequest<?> request, String projectId, String userId) {
        service.removeMember(Caller.identity(request), Caller.grant(request), "user", Ids.of("userId", userId));
        return HttpResponse.noContent();
    }

    @Put("/projects/{projectId}/members/api-tokens/{apiTokenId}")
    @Access(Action.PROJECT_MEMBERS_WRITE)
    HttpResponse<Void> setToken(HttpRequest<?> request, String projectId, String apiTokenId,
                                @Valid @Body Requests.SetRole body) {
        service.setMember(Caller.identity(request), Caller.grant(request), "api-token",
                Ids.of("apiTokenId", apiTokenId), body.role().name());
        return HttpResponse.noContent();
    }

    @Delete("/projects/{projectId}/members/api-tokens/{apiTokenId}")
    @Access(Action.PROJECT_MEMBERS_WRITE)
    HttpResponse<Void> removeToken(HttpRequest<?> request, String projectId, String apiTokenId) {
        service.removeMember(Caller.identity(request), Caller.grant(request), "api-token",
                Ids.of("apiTokenId", apiTokenId));
        return HttpResponse.noContent();
    }
}
