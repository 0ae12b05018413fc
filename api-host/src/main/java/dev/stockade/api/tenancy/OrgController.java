package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** {@code /v1/orgs}: organizations and their members. */
@Controller("/v1/orgs")
@Tag(name = "organizations")
class OrgController {
    private final OrgService service;

    OrgController(OrgService service) {
        this.service = service;
    }

    @Post
    @Status(HttpStatus.CREATED)
    @Access(Action.ORG_CREATE)
    Views.OrgView create(HttpRequest<?> request, @Valid @Body Requests.CreateOrg body) {
        return Views.OrgView.of(service.create(Caller.identity(request), body.name()));
    }

    @Get
    @Access(Action.ORG_LIST)
    Views.Orgs list(HttpRequest<?> request) {
        return new Views.Orgs(service.list(Caller.identity(request)).stream().map(Views.OrgView::of).toList());
    }

    @Get("/{orgId}")
    @Access(Action.ORG_READ)
    Views.OrgView get(HttpRequest<?> request, String orgId) {
        return Views.OrgView.of(service.get(Caller.grant(request).orgId()));
    }

    @Patch("/{orgId}")
    @Access(Action.ORG_UPDATE)
    Views.OrgView update(HttpRequest<?> request, String orgId, @Valid @Body Requests.UpdateOrg body) {
        return Views.OrgView.of(service.rename(Caller.identity(request), Caller.grant(request).orgId(), body.name()));
    }

    @Delete("/{orgId}")
    @Access(Action.ORG_DELETE)
    HttpResponse<Void> delete(HttpRequest<?> request, String orgId) {
        service.delete(Caller.identity(request), Caller.grant(request).orgId());
        return HttpResponse.noContent();
    }

    @Get("/{orgId}/members")
    @Access(Action.ORG_MEMBERS_READ)
    Views.Members members(HttpRequest<?> request, String orgId) {
        return new Views.Members(service.members(Caller.grant(request).orgId()));
    }

    @Put("/{orgId}/members/{userId}")
    @Access(Action.ORG_MEMBERS_WRITE)
    HttpResponse<Void> setMember(HttpRequest<?> request, String orgId, String userId, @Valid @Body Requests.SetRole body) {
        service.setMember(Caller.identity(request), Caller.grant(request).orgId(), Ids.of("userId", userId),
                body.role().name());
        return HttpResponse.noContent();
    }

    @Delete("/{orgId}/members/{userId}")
    @Access(Action.ORG_MEMBERS_WRITE)
    HttpResponse<Void> removeMember(HttpRequest<?> request, String orgId, String userId) {
        service.removeMember(Caller.identity(request), Caller.grant(request).orgId(), Ids.of("userId", userId));
        return HttpResponse.noContent();
    }
}
