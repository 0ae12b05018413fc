package dev.stockade.api.impact;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.ScopePath;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestBean;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code POST /v1/orgs/{orgId}/policy-impact} (an org admin, the whole organization's trail) and
 * {@code POST /v1/projects/{projectId}/policy-impact} (a project admin, that project's): what candidate policies would
 * change in recorded traffic, before they are saved (docs/policy-impact.md).
 */
@Controller("/v1")
@Tag(name = "governance")
record PolicyImpactController(PolicyImpactService service) {
    @Post(uris = {"/orgs/{orgId}/policy-impact", "/projects/{projectId}/policy-impact"})
    @Consumes("application/json")
    @Access({Action.POLICY_IMPACT_ORG, Action.POLICY_IMPACT_PROJECT})
    ImpactView replay(HttpRequest<?> request, @RequestBean ScopePath scope, @Body String body) {
        return service.replay(Caller.grant(request), body);
    }
}
