package dev.stockade.api.governance;

import dev.stockade.api.governance.BindingService.Binding;
import dev.stockade.api.governance.GovernanceViews.BindingView;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.access.ScopePath;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.UUID;

/**
 * Policy bindings at org level ({@code /v1/orgs/{orgId}/policy-bindings}) and project level
 * ({@code /v1/projects/{projectId}/policy-bindings}), binding drift, and the effective policy of an identity. The two
 * levels are the same operations on the grant's scope, so one method serves both paths with an action per level.
 */
@Controller("/v1")
@Tag(name = "governance")
class BindingController {

    /** A binding: the policy and exactly one of {@code userId} and {@code apiTokenId}. */
    @Introspected
    record CreateBinding(@NotNull UUID policyId, @Nullable UUID userId, @Nullable UUID apiTokenId) {
    }

    private final BindingService bindings;
    private final BindingDrift drift;

    BindingController(BindingService bindings, BindingDrift drift) {
        this.bindings = bindings;
        this.drift = drift;
    }

    @Post(uris = {"/orgs/{orgId}/policy-bindings", "/projects/{projectId}/policy-bindings"})
    @Status(HttpStatus.CREATED)
    @Access({Action.ORG_BINDINGS_WRITE, Action.PROJECT_BINDINGS_WRITE})
    BindingView create(HttpRequest<?> request, @RequestBean ScopePath scope, @Valid @Body CreateBinding body) {
        if ((body.userId() == null) == (body.apiTokenId() == null)) {
            throw ApiProblem.invalid("/userId", "one-subject", "a binding names exactly one of `userId` and"
                    + " `apiTokenId`");
        }
        String type = body.userId() != null ? BindingService.USER : BindingService.API_TOKEN;
        UUID subject = body.userId() != null ? body.userId() : body.apiTokenId();
        return view(bindings.create(Caller.identity(request), Caller.grant(request), body.policyId(), type, subject));
    }

    @Get(uris = {"/orgs/{orgId}/policy-bindings", "/projects/{projectId}/policy-bindings"})
    @Access({Action.ORG_BINDINGS_READ, Action.PROJECT_BINDINGS_READ})
    GovernanceViews.Bindings list(HttpRequest<?> request, @RequestBean ScopePath scope) {
        return page(bindings.list(Caller.grant(request)));
    }

    @Get(uris = {"/orgs/{orgId}/policy-bindings/{bindingId}", "/projects/{projectId}/policy-bindings/{bindingId}"})
    @Access({Action.ORG_BINDINGS_READ, Action.PROJECT_BINDINGS_READ})
    BindingView get(HttpRequest<?> request, @RequestBean ScopePath scope, String bindingId) {
        return view(bindings.get(Caller.grant(request), Authorizer.uuid("bindingId", bindingId)));
    }

    @Delete(uris = {"/orgs/{orgId}/policy-bindings/{bindingId}", "/projects/{projectId}/policy-bindings/{bindingId}"})
    @Access({Action.ORG_BINDINGS_WRITE, Action.PROJECT_BINDINGS_WRITE})
    HttpResponse<Void> delete(HttpRequest<?> request, @RequestBean ScopePath scope, String bindingId) {
        bindings.delete(Caller.identity(request), Caller.grant(request), Authorizer.uuid("bindingId", bindingId));
        return HttpResponse.noContent();
    }

    @Get("/orgs/{orgId}/policy-bindings/drift")
    @Access(Action.BINDING_DRIFT_READ)
    GovernanceViews.DriftCases drift(HttpRequest<?> request, String orgId) {
        return new GovernanceViews.DriftCases(drift.report(Caller.grant(request).orgId()));
    }

    /**
     * The effective policy of a user or an API token in the project: the core's resolution of every policy bound to
     * it, clipped by the org ceiling. Without {@code userId} or {@code apiTokenId}: the caller's own.
     */
    @Get("/projects/{projectId}/policy-bindings/effective")
    @Access(Action.PROJECT_BINDINGS_READ)
    GovernanceViews.SubjectEffective effective(HttpRequest<?> request, String projectId,
                                               @QueryValue @Nullable String userId,
                                               @QueryValue @Nullable String apiTokenId) {
        Grant g = Caller.grant(request);
        Subject subject = subject(Caller.identity(request), userId, apiTokenId);
        return GovernanceViews.SubjectEffective.of(drift.effective(g.orgId(), g.projectId(), subject.type(),
                subject.id()), subject.type(), subject.id());
    }

    private record Subject(String type, UUID id) {
    }

    private static Subject subject(Identity caller, String userId, String apiTokenId) {
        if (userId != null && apiTokenId != null) {
            throw ApiProblem.invalid("/apiTokenId", "one-subject", "give `userId` or `apiTokenId`, not both");
        }
        if (userId != null) {
            return new Subject(BindingService.USER, Authorizer.uuid("userId", userId));
        }
        if (apiTokenId != null) {
            return new Subject(BindingService.API_TOKEN, Authorizer.uuid("apiTokenId", apiTokenId));
        }
        if (caller instanceof Identity.User u) {
            return new Subject(BindingService.USER, u.userId());
        }
        if (caller instanceof Identity.ApiToken t) {
            return new Subject(BindingService.API_TOKEN, t.tokenId());
        }
        throw ApiProblem.invalid("/userId", "one-subject", "this identity receives no bindings; name `userId` or"
                + " `apiTokenId`");
    }

    private static GovernanceViews.Bindings page(List<Binding> list) {
        return new GovernanceViews.Bindings(list.stream().map(BindingView::of).toList());
    }

    private static BindingView view(Binding b) {
        return BindingView.of(b);
    }
}
