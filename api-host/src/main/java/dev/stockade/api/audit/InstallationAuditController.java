package dev.stockade.api.audit;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.web.QueryParameters;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Set;

/**
 * {@code GET /v1/audit-trail}: the installation-wide entries, those recorded in no organization (proxy tokens, a
 * person's refused tool call when the person belongs to no organization). Only the installation owner reads them;
 * without this page they would be stored and never seen.
 */
@Controller("/v1/audit-trail")
@Tag(name = "audit")
record InstallationAuditController(AuditTrail trail) {
    private static final Set<String> PARAMS = Set.of("cursor", "cursorId", "from", "to", "kind", "action", "actorId",
            "projectId", "outcome", "excludeReads", "limit");

    @Get
    @Access(Action.INSTALLATION_AUDIT_READ)
    AuditTrail.Page page(HttpRequest<?> request) {
        return trail.page(null, AuditQuery.parse(QueryParameters.single(request, PARAMS)));
    }
}
