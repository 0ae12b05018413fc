package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.sandbox.SandboxViews.SandboxView;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/** Sandboxes of a project ({@code /v1/projects/{projectId}/sandboxes}): records, states, revisions, policy. */
@Controller("/v1/projects/{projectId}/sandboxes")
@Tag(name = "sandboxes")
record SandboxController(SandboxService service, SandboxPolicies policies, PortReadiness readiness) {
    /** For each exposed port, whether something in the sandbox accepts connections on it now. */
    @Get("/{sandboxId}/port-readiness")
    @Access(Action.SANDBOX_READ)
    SandboxViews.PortReadinessView portReadiness(HttpRequest<?> request, String projectId, String sandboxId) {
        Sandbox s = service.get(Caller.grant(request), id(sandboxId));
        return new SandboxViews.PortReadinessView(s.state().slug(), readiness.check(s));
    }

    @Post
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Status(HttpStatus.CREATED)
    @Access(Action.SANDBOX_WRITE)
    SandboxView create(HttpRequest<?> request, String projectId, @Body String body) {
        return SandboxViews.of(service.create(Caller.identity(request), Caller.grant(request), body));
    }

    @Get
    @Access(Action.SANDBOX_READ)
    SandboxViews.Sandboxes list(HttpRequest<?> request, String projectId) {
        return SandboxViews.page(service.list(Caller.grant(request)));
    }

    @Get("/{sandboxId}")
    @Access(Action.SANDBOX_READ)
    SandboxView get(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.get(Caller.grant(request), id(sandboxId)));
    }

    @Patch("/{sandboxId}")
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Access(Action.SANDBOX_WRITE)
    SandboxView update(HttpRequest<?> request, String projectId, String sandboxId, @Body String body) {
        return SandboxViews.of(service.update(Caller.identity(request), Caller.grant(request), id(sandboxId), body));
    }

    @Delete("/{sandboxId}")
    @Access(Action.SANDBOX_WRITE)
    HttpResponse<Void> delete(HttpRequest<?> request, String projectId, String sandboxId) {
        service.delete(Caller.identity(request), Caller.grant(request), id(sandboxId));
        return HttpResponse.noContent();
    }

    @Post("/{sandboxId}/start")
    @Status(HttpStatus.ACCEPTED)
    @Access(Action.SANDBOX_OPERATE)
    SandboxView start(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.start(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    @Post("/{sandboxId}/stop")
    @Status(HttpStatus.ACCEPTED)
    @Access(Action.SANDBOX_OPERATE)
    SandboxView stop(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.stop(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    @Post("/{sandboxId}/restart")
    @Status(HttpStatus.ACCEPTED)
    @Access(Action.SANDBOX_OPERATE)
    SandboxView restart(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.restart(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    @Get("/{sandboxId}/revisions")
    @Access(Action.SANDBOX_READ)
    SandboxViews.Revisions revisions(HttpRequest<?> request, String projectId, String sandboxId) {
        Grant g = Caller.grant(request);
        UUID id = id(sandboxId);
        int active = service.get(g, id).activeRevision();
        return SandboxViews.revisions(service.revisions(g, id), active);
    }

    @Post("/{sandboxId}/revisions/{revision}/promote")
    @Access(Action.SANDBOX_WRITE)
    SandboxView promote(HttpRequest<?> request, String projectId, String sandboxId, String revision) {
        int n;
        try {
            n = Integer.parseInt(revision);
        } catch (NumberFormatException e) {
            throw ApiProblem.invalid("/revision", "integer", "`revision` must be a revision number");
        }
        return SandboxViews.of(service.promote(Caller.identity(request), Caller.grant(request), id(sandboxId), n));
    }

    @Post("/{sandboxId}/rollback")
    @Access(Action.SANDBOX_WRITE)
    SandboxView rollback(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.rollback(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    /** What the sandbox has now (the core's resolution) and what its active revision was provisioned with. */
    @Get("/{sandboxId}/effective-policy")
    @Access(Action.SANDBOX_READ)
    SandboxViews.EffectivePolicyView effective(HttpRequest<?> request, String projectId, String sandboxId) {
        Grant g = Caller.grant(request);
        Sandbox s = service.get(g, id(sandboxId));
        Effective.View now = Effective.view(policies.resolve(s));
        JsonNode provisioned = service.revisions(g, s.id()).stream().filter(r -> r.revision() == s.activeRevision())
                .map(SandboxStore.Revision::provisioned).filter(Objects::nonNull).findFirst().orElse(null);
        return new SandboxViews.EffectivePolicyView(s.id(), s.activeRevision(), now, provisioned);
    }

    private static UUID id(String sandboxId) {
        return Authorizer.uuid("sandboxId", sandboxId);
    }

    static List<String> states() {
        return java.util.Arrays.stream(SandboxState.values()).map(SandboxState::slug).toList();
    }
}
