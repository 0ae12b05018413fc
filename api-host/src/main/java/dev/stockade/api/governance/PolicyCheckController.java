package dev.stockade.api.governance;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ScopePath;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestBean;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Policy checks ({@code POST /v1/orgs/{orgId}/policy-checks}, {@code POST /v1/projects/{projectId}/policy-checks}):
 * the core's lint of a document as sent, nothing saved. It is a read of the scope's policies, so whoever may read them
 * may check a draft; the body is bounded by the server's request size like every policy write.
 */
@Controller("/v1")
@Tag(name = "governance")
class PolicyCheckController {
    @Post(uris = {"/orgs/{orgId}/policy-checks", "/projects/{projectId}/policy-checks"})
    @Consumes({"application/json", "application/yaml", "text/yaml", "text/plain"})
    @Access({Action.ORG_POLICIES_READ, Action.PROJECT_POLICIES_READ})
    PolicyCheck check(HttpRequest<?> request, @RequestBean ScopePath scope, @Body String body) {
        return PolicyCheck.of(body);
    }
}
