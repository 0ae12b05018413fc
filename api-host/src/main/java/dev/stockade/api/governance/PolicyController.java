package dev.stockade.api.governance;

import dev.stockade.api.governance.GovernanceViews.PolicyView;
import dev.stockade.api.governance.PolicyService.StoredPolicy;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
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

/**
 * Org policies ({@code /v1/orgs/{orgId}/policies}) and project policies ({@code /v1/projects/{projectId}/policies}).
 * Bodies are policy documents in JSON or YAML, read as text so that the core reports line and column.
 */
@Controller("/v1")
@Tag(name = "governance")
class PolicyController {

    private final PolicyService service;

    PolicyController(PolicyService service) {
        this.service = service;
    }

    @Post("/orgs/{orgId}/policies")
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Status(HttpStatus.CREATED)
    @Access(Action.ORG_POLICIES_WRITE)
    PolicyView createOrg(HttpRequest<?> request, String orgId, @Body String body) {
        return view(service.create(Caller.identity(request), Caller.grant(request), body));
    }

    @Get("/orgs/{orgId}/policies")
    @Access(Action.ORG_POLICIES_READ)
    GovernanceViews.Policies listOrg(HttpRequest<?> request, String orgId) {
        return page(service.list(Caller.grant(request)));
    }

    @Get("/orgs/{orgId}/policies/{policyId}")
    @Access(Action.ORG_POLICIES_READ)
    PolicyView getOrg(HttpRequest<?> request, String orgId, String policyId) {
        return view(service.get(Caller.grant(request), Authorizer.uuid("policyId", policyId)));
    }

    @Patch("/orgs/{orgId}/policies/{policyId}")
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Access(Action.ORG_POLICIES_WRITE)
    PolicyView updateOrg(HttpRequest<?> request, String orgId, String policyId, @Body String body) {
        return view(service.update(Caller.identity(request), Caller.grant(request),
                Authorizer.uuid("policyId", policyId), body));
    }

    @Delete("/orgs/{orgId}/policies/{policyId}")
    @Access(Action.ORG_POLICIES_WRITE)
    HttpResponse<Void> deleteOrg(HttpRequest<?> request, String orgId, String policyId) {
        service.delete(Caller.identity(request), Caller.grant(request), Authorizer.uuid("policyId", policyId));
        return HttpResponse.noContent();
    }

    @Post("/projects/{projectId}/policies")
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Status(HttpStatus.CREATED)
    @Access(Action.PROJECT_POLICIES_WRITE)
    PolicyView createProject(HttpRequest<?> request, String projectId, @Body String body) {
        return view(service.create(Caller.identity(request), Caller.grant(request), body));
    }

    @Get("/projects/{projectId}/policies")
    @Access(Action.PROJECT_POLICIES_READ)
    GovernanceViews.Policies listProject(HttpRequest<?> request, String projectId) {
        return page(service.list(Caller.grant(request)));
    }

    @Get("/projects/{projectId}/policies/{policyId}")
    @Access(Action.PROJECT_POLICIES_READ)
    PolicyView getProject(HttpRequest<?> request, String projectId, String policyId) {
        return view(service.get(Caller.grant(request), Authorizer.uuid("policyId", policyId)));
    }

    @Patch("/projects/{projectId}/policies/{policyId}")
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Access(Action.PROJECT_POLICIES_WRITE)
    PolicyView updateProject(HttpRequest<?> request, String projectId, String policyId, @Body String body) {
        return view(service.update(Caller.identity(request), Caller.grant(request),
                Authorizer.uuid("policyId", policyId), body));
    }

    @Delete("/projects/{projectId}/policies/{policyId}")
    @Access(Action.PROJECT_POLICIES_WRITE)
    HttpResponse<Void> deleteProject(HttpRequest<?> request, String projectId, String policyId) {
        service.delete(Caller.identity(request), Caller.grant(request), Authorizer.uuid("policyId", policyId));
        return HttpResponse.noContent();
    }

    static GovernanceViews.Policies page(List<StoredPolicy> policies) {
        return new GovernanceViews.Policies(policies.stream().map(PolicyView::of).toList());
    }

    static PolicyView view(StoredPolicy p) {
        return PolicyView.of(p);
    }
}
