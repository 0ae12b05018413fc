package dev.stockade.api.governance;

import dev.stockade.api.governance.GovernanceViews.PolicyView;
import dev.stockade.api.governance.PolicyService.StoredPolicy;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.ScopePath;
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
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;

/**
 * Org policies ({@code /v1/orgs/{orgId}/policies}) and project policies ({@code /v1/projects/{projectId}/policies}).
 * Bodies are policy documents in JSON or YAML, read as text so that the core reports line and column. Both levels are
 * the same operations on the grant's scope, so each method serves both paths with one action per level.
 */
@Controller("/v1")
@Tag(name = "governance")
record PolicyController(PolicyService service) {
    @Post(uris = {"/orgs/{orgId}/policies", "/projects/{projectId}/policies"})
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Status(HttpStatus.CREATED)
    @Access({Action.ORG_POLICIES_WRITE, Action.PROJECT_POLICIES_WRITE})
    PolicyView create(HttpRequest<?> request, @RequestBean ScopePath scope, @Body String body) {
        return view(service.create(Caller.identity(request), Caller.grant(request), body));
    }

    @Get(uris = {"/orgs/{orgId}/policies", "/projects/{projectId}/policies"})
    @Access({Action.ORG_POLICIES_READ, Action.PROJECT_POLICIES_READ})
    GovernanceViews.Policies list(HttpRequest<?> request, @RequestBean ScopePath scope) {
        return page(service.list(Caller.grant(request)));
    }

    @Get(uris = {"/orgs/{orgId}/policies/{policyId}", "/projects/{projectId}/policies/{policyId}"})
    @Access({Action.ORG_POLICIES_READ, Action.PROJECT_POLICIES_READ})
    PolicyView get(HttpRequest<?> request, @RequestBean ScopePath scope, String policyId) {
        return view(service.get(Caller.grant(request), Authorizer.uuid("policyId", policyId)));
    }

    @Patch(uris = {"/orgs/{orgId}/policies/{policyId}", "/projects/{projectId}/policies/{policyId}"})
    @Consumes({"application/json", "application/yaml", "text/yaml"})
    @Access({Action.ORG_POLICIES_WRITE, Action.PROJECT_POLICIES_WRITE})
    PolicyView update(HttpRequest<?> request, @RequestBean ScopePath scope, String policyId, @Body String body) {
        return view(service.update(Caller.identity(request), Caller.grant(request),
                Authorizer.uuid("policyId", policyId), body));
    }

    @Delete(uris = {"/orgs/{orgId}/policies/{policyId}", "/projects/{projectId}/policies/{policyId}"})
    @Access({Action.ORG_POLICIES_WRITE, Action.PROJECT_POLICIES_WRITE})
    HttpResponse<Void> delete(HttpRequest<?> request, @RequestBean ScopePath scope, String policyId) {
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
