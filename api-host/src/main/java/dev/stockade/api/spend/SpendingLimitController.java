package dev.stockade.api.spend;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * {@code /v1/orgs/{orgId}/spending-limits}: the list, the status (spend in each limit's current period), and one
 * limit per target at {@code .../org}, {@code .../projects/{projectId}} and
 * {@code .../projects/{projectId}/sandboxes/{sandboxId}}, each set (replaced) by PUT and removed by DELETE.
 */
@Controller("/v1/orgs/{orgId}/spending-limits")
@Tag(name = "spend")
class SpendingLimitController {
    private static final String SANDBOX = "/projects/{projectId}/sandboxes/{sandboxId}";

    private final SpendingLimits limits;
    private final SpendReservations reservations;
    private final Clock clock;

    SpendingLimitController(SpendingLimits limits, SpendReservations reservations, Clock clock) {
        this.limits = limits;
        this.reservations = reservations;
        this.clock = clock;
    }

    @Get
    @Access(Action.SPENDING_LIMITS_READ)
    SpendViews.Limits list(HttpRequest<?> request, String orgId) {
        return new SpendViews.Limits(limits.all(Caller.grant(request).orgId(), clock.instant()).stream()
                .map(SpendViews.LimitView::of).toList());
    }

    @Get("/status")
    @Access(Action.SPENDING_LIMITS_READ)
    SpendViews.Status status(HttpRequest<?> request, String orgId) {
        Instant now = clock.instant();
        UUID org = Caller.grant(request).orgId();
        SpendReservations.Holds held = reservations.held(org, now);
        return new SpendViews.Status(now, SpendViews.statuses(limits.all(org, now), held));
    }

    @Put("/org")
    @Access(Action.SPENDING_LIMITS_WRITE)
    SpendViews.LimitView setOrg(HttpRequest<?> request, String orgId, @Valid @Body SetLimit body) {
        return set(request, Caller.grant(request), LimitTarget.org(), body);
    }

    @Delete("/org")
    @Access(Action.SPENDING_LIMITS_WRITE)
    HttpResponse<Void> deleteOrg(HttpRequest<?> request, String orgId) {
        return delete(request, Caller.grant(request), LimitTarget.org());
    }

    @Put("/projects/{projectId}")
    @Access(Action.SPENDING_LIMITS_WRITE)
    SpendViews.LimitView setProject(HttpRequest<?> request, String orgId, String projectId,
                                    @Valid @Body SetLimit body) {
        return set(request, Caller.grant(request), LimitTarget.project(Authorizer.uuid("projectId", projectId)), body);
    }

    @Delete("/projects/{projectId}")
    @Access(Action.SPENDING_LIMITS_WRITE)
    HttpResponse<Void> deleteProject(HttpRequest<?> request, String orgId, String projectId) {
        return delete(request, Caller.grant(request), LimitTarget.project(Authorizer.uuid("projectId", projectId)));
    }

    @Get(SANDBOX)
    @Access(Action.SANDBOX_SPENDING_LIMIT_READ)
    SpendViews.StatusView getSandbox(HttpRequest<?> request, String orgId, String projectId, String sandboxId) {
        Grant grant = inOrg(request, orgId);
        Instant now = clock.instant();
        return SpendViews.StatusView.of(limits.find(grant.orgId(), sandbox(grant, sandboxId), now),
                reservations.held(grant.orgId(), now));
    }

    @Put(SANDBOX)
    @Access(Action.SANDBOX_SPENDING_LIMIT_WRITE)
    SpendViews.LimitView setSandbox(HttpRequest<?> request, String orgId, String projectId, String sandboxId,
                                    @Valid @Body SetLimit body) {
        Grant grant = inOrg(request, orgId);
        return set(request, grant, sandbox(grant, sandboxId), body);
    }

    @Delete(SANDBOX)
    @Access(Action.SANDBOX_SPENDING_LIMIT_WRITE)
    HttpResponse<Void> deleteSandbox(HttpRequest<?> request, String orgId, String projectId, String sandboxId) {
        Grant grant = inOrg(request, orgId);
        return delete(request, grant, sandbox(grant, sandboxId));
    }

    private SpendViews.LimitView set(HttpRequest<?> request, Grant grant, LimitTarget target, SetLimit body) {
        return SpendViews.LimitView.of(limits.set(Caller.identity(request), grant.orgId(), target,
                body.amountMicros(), body.spendPeriod()));
    }

    private HttpResponse<Void> delete(HttpRequest<?> request, Grant grant, LimitTarget target) {
        limits.delete(Caller.identity(request), grant.orgId(), target);
        return HttpResponse.noContent();
    }

    private static LimitTarget sandbox(Grant grant, String sandboxId) {
        return LimitTarget.sandbox(grant.projectId(), Authorizer.uuid("sandboxId", sandboxId));
    }

    /** A project route authorizes by the project; the organization in its path must be the project's own. */
    private static Grant inOrg(HttpRequest<?> request, String orgId) {
        Grant grant = Caller.grant(request);
        if (!grant.orgId().equals(Authorizer.uuid("orgId", orgId))) {
            throw ApiProblem.notFound("project `" + grant.projectId() + "`");
        }
        return grant;
    }
}
