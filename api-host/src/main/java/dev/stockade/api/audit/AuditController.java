package dev.stockade.api.audit;

import dev.stockade.api.audit.AuditQuery;
import dev.stockade.api.audit.AuditTrail;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.QueryParameters;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Set;

/** {@code /v1/orgs/{orgId}/audit-trail}, {@code .../stats} and {@code .../timeseries}. */
@Controller("/v1/orgs/{orgId}/audit-trail")
@Tag(name = "audit")
record AuditController(AuditTrail trail) {
    private static final Set<String> PARAMS = Set.of("cursor", "cursorId", "from", "to", "kind", "action", "actorId",
            "projectId", "outcome", "excludeReads", "limit", "interval");
    private static final Set<String> INTERVALS = Set.of("minute", "hour", "day");

    @Get
    @Access(Action.AUDIT_READ)
    AuditTrail.Page page(HttpRequest<?> request, String orgId,
                         @Parameter(description = "ISO 8601 timestamp of the previous page's last entry") @QueryValue @io.micronaut.core.annotation.Nullable String cursor,
                         @Parameter(description = "id of the previous page's last entry (breaks timestamp ties)") @QueryValue @io.micronaut.core.annotation.Nullable String cursorId,
                         @Parameter(description = "true drops reads") @QueryValue @io.micronaut.core.annotation.Nullable String excludeReads) {
        return trail.page(Caller.grant(request).orgId(), query(request));
    }

    @Get("/stats")
    @Access(Action.AUDIT_READ)
    AuditTrail.Stats stats(HttpRequest<?> request, String orgId) {
        return trail.stats(Caller.grant(request).orgId(), query(request));
    }

    @Get("/timeseries")
    @Access(Action.AUDIT_READ)
    AuditTrail.Timeseries timeseries(HttpRequest<?> request, String orgId) {
        String interval = request.getParameters().get("interval", String.class).orElse("hour");
        if (!INTERVALS.contains(interval)) {
            throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "`interval` must be minute, hour or day");
        }
        return trail.timeseries(Caller.grant(request).orgId(), query(request), interval);
    }

    private static AuditQuery query(HttpRequest<?> request) {
        return AuditQuery.parse(QueryParameters.single(request, PARAMS));
    }
}
