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
 * {@code POST /v1/orgs/{orgId}/policy-suggest} (an org admin, the whole organization's trail) and
 * {@code POST /v1/projects/{projectId}/policy-suggest} (a project admin, that project's): the least-privilege policy a
 * window of recorded traffic justifies, so that the UI and agents can draft one (docs/policy-impact.md, "Suggest").
 */
@Controller("/v1")
@Tag(name = "governance")
record PolicySuggestController(PolicySuggestService service) {
    @Post(uris = {"/orgs/{orgId}/policy-suggest", "/projects/{projectId}/policy-suggest"})
    @Consumes("application/json")
    @Access({Action.POLICY_SUGGEST_ORG, Action.POLICY_SUGGEST_PROJECT})
    SuggestView suggest(HttpRequest<?> request, @RequestBean ScopePath scope, @Body String body) {
        return service.suggest(Caller.grant(request), body);
    }
}
