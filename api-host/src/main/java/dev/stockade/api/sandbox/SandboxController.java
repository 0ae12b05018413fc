package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.web.ApiProblem;
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
import java.util.Map;
import java.util.UUID;

/** Sandboxes of a project ({@code /v1/projects/{projectId}/sandboxes}): records, states, revisions, policy. */
@Controller("/v1/projects/{projectId}/sandboxes")
@Tag(name = "sandboxes")
class SandboxController {
    private final SandboxService service;
    private final SandboxPolicies policies;
    private final PortReadiness readiness;

    SandboxController(SandboxService service, SandboxPolicies policies, PortReadiness readiness) {
        this.service = service;
        this.policies = policies;
        this.readiness = readiness;
    }

    /** For each exposed port, whether something in the sandbox accepts connections on it now. */
    @Get("/{sandboxId}/port-readiness")
    @Access(Action.SANDBOX_READ)
    Map<String, Object> portReadiness(HttpRequest<?> request, String projectId, String sandboxId) {
        Sandbox s = service.get(Caller.grant(request), id(sandboxId));
        return Map.of("state", s.state().slug(), "ports", readiness.check(s));
    }

    @Post
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Status(HttpStatus.CREATED)
    @Access(Action.SANDBOX_WRITE)
    Map<String, Object> create(HttpRequest<?> request, String projectId, @Body String body) {
        return SandboxViews.of(service.create(Caller.identity(request), Caller.grant(request), body));
    }

    @Get
    @Access(Action.SANDBOX_READ)
    Map<String, Object> list(HttpRequest<?> request, String projectId) {
        return Map.of("items", service.list(Caller.grant(request)).stream().map(SandboxViews::of).toList());
    }

    @Get("/{sandboxId}")
    @Access(Action.SANDBOX_READ)
    Map<String, Object> get(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.get(Caller.grant(request), id(sandboxId)));
    }

    @Patch("/{sandboxId}")
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Access(Action.SANDBOX_WRITE)
    Map<String, Object> update(HttpRequest<?> request, String projectId, String sandboxId, @Body String body) {
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
    Map<String, Object> start(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.start(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    @Post("/{sandboxId}/stop")
    @Status(HttpStatus.ACCEPTED)
    @Access(Action.SANDBOX_OPERATE)
    Map<String, Object> stop(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.stop(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    @Post("/{sandboxId}/restart")
    @Status(HttpStatus.ACCEPTED)
    @Access(Action.SANDBOX_OPERATE)
    Map<String, Object> restart(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.restart(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    @Get("/{sandboxId}/revisions")
    @Access(Action.SANDBOX_READ)
    Map<String, Object> revisions(HttpRequest<?> request, String projectId, String sandboxId) {
        Grant g = Caller.grant(request);
        UUID id = id(sandboxId);
        int active = service.get(g, id).activeRevision();
        return Map.of("items", SandboxViews.revisions(service.revisions(g, id), active));
    }

    @Post("/{sandboxId}/revisions/{revision}/promote")
    @Access(Action.SANDBOX_WRITE)
    Map<String, Object> promote(HttpRequest<?> request, String projectId, String sandboxId, String revision) {
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
    Map<String, Object> rollback(HttpRequest<?> request, String projectId, String sandboxId) {
        return SandboxViews.of(service.rollback(Caller.identity(request), Caller.grant(request), id(sandboxId)));
    }

    /** What the sandbox has now (the core's resolution) and what its active revision was provisioned with. */
    @Get("/{sandboxId}/effective-policy")
    @Access(Action.SANDBOX_READ)
    Map<String, Object> effective(HttpRequest<?> request, String projectId, String sandboxId) {
        Grant g = Caller.grant(request);
        Sandbox s = service.get(g, id(sandboxId));
        ObjectNode now = Effective.view(policies.resolve(s));
        Object provisioned = service.revisions(g, s.id()).stream().filter(r -> (int) r[0] == s.activeRevision())
                .map(r -> r[2]).filter(java.util.Objects::nonNull).findFirst().orElse(null);
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("sandboxId", s.id());
        out.put("revision", s.activeRevision());
        out.put("current", now);
        out.put("provisioned", provisioned);
        return out;
    }

    private static UUID id(String sandboxId) {
        return Authorizer.uuid("sandboxId", sandboxId);
    }

    static List<String> states() {
        return java.util.Arrays.stream(SandboxState.values()).map(SandboxState::slug).toList();
    }
}
