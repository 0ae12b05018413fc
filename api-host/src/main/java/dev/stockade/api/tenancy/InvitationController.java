package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** {@code /v1/orgs/{orgId}/invitations} (org admins) and {@code /v1/invitations} (the invited person). */
@Controller("/v1")
@Tag(name = "organizations")
class InvitationController {
    private final InvitationService service;

    InvitationController(InvitationService service) {
        this.service = service;
    }

    @Post("/orgs/{orgId}/invitations")
    @Status(HttpStatus.CREATED)
    @Access(Action.INVITATIONS_MANAGE)
    Views.InvitationView create(HttpRequest<?> request, String orgId, @Valid @Body Requests.CreateInvitation body) {
        return service.create(Caller.identity(request), Caller.grant(request).orgId(), body);
    }

    @Get("/orgs/{orgId}/invitations")
    @Access(Action.INVITATIONS_MANAGE)
    Views.Invitations list(HttpRequest<?> request, String orgId) {
        return new Views.Invitations(service.listForOrg(Caller.grant(request).orgId()));
    }

    @Delete("/orgs/{orgId}/invitations/{invitationId}")
    @Access(Action.INVITATIONS_MANAGE)
    HttpResponse<Void> delete(HttpRequest<?> request, String orgId, String invitationId) {
        service.delete(Caller.identity(request), Caller.grant(request).orgId(), Ids.of("invitationId", invitationId));
        return HttpResponse.noContent();
    }

    @Get("/invitations")
    @Access(Action.INVITATIONS_MINE)
    Views.Invitations mine(HttpRequest<?> request) {
        return new Views.Invitations(service.listMine((Identity.User) Caller.identity(request)));
    }

    @Post("/invitations/{invitationId}/accept")
    @Access(Action.INVITATIONS_MINE)
    Views.InvitationView accept(HttpRequest<?> request, String invitationId) {
        return service.accept((Identity.User) Caller.identity(request), Ids.of("invitationId", invitationId));
    }
}
