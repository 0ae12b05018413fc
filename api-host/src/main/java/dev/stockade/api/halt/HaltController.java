package dev.stockade.api.halt;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.tags.Tag;

/** {@code /v1/orgs/{orgId}/halt}: read by any org member, set and lifted by org administrators. */
@Controller("/v1/orgs/{orgId}/halt")
@Tag(name = "halt")
record HaltController(HaltService service) {
    @Get
    @Access(Action.HALT_READ)
    HaltService.HaltState get(HttpRequest<?> request, String orgId) {
        return service.get(Caller.grant(request).orgId());
    }

    @Post
    @Access(Action.HALT_WRITE)
    HaltService.HaltState halt(HttpRequest<?> request, String orgId) {
        return service.set(Caller.identity(request), Caller.grant(request).orgId(), true);
    }

    @Delete
    @Access(Action.HALT_WRITE)
    HaltService.HaltState lift(HttpRequest<?> request, String orgId) {
        return service.set(Caller.identity(request), Caller.grant(request).orgId(), false);
    }
}
