package dev.stockade.api.aws;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.util.List;
import java.util.UUID;

/** AWS connections (spec: Connections, "Cloud connections"): the IAM roles a project's sandboxes may assume. */
@Controller("/v1")
@Tag(name = "aws-connections")
class AwsConnectionController {
    private final AwsConnectionService service;

    AwsConnectionController(AwsConnectionService service) {
        this.service = service;
    }

    /** A project's AWS connections. */
    @Introspected
    record AwsConnections(List<AwsConnection> items) {
    }

    @Get("/projects/{projectId}/aws-connections")
    @Access(Action.AWS_CONNECTION_LIST)
    AwsConnections list(HttpRequest<?> request, String projectId) {
        return new AwsConnections(service.list(Caller.grant(request).projectId()));
    }

    @Post("/projects/{projectId}/aws-connections")
    @Status(HttpStatus.CREATED)
    @Access(Action.AWS_CONNECTION_CREATE)
    AwsConnection create(HttpRequest<?> request, String projectId,
                         @Valid @Body AwsConnectionRequests.CreateConnection body) {
        return service.create(Caller.identity(request), Caller.grant(request), body);
    }

    @Get("/aws-connections/{connectionId}")
    @Access(Action.AWS_CONNECTION_READ)
    AwsConnection get(String connectionId) {
        return service.get(id(connectionId));
    }

    @Patch("/aws-connections/{connectionId}")
    @Access(Action.AWS_CONNECTION_UPDATE)
    AwsConnection update(HttpRequest<?> request, String connectionId,
                         @Valid @Body AwsConnectionRequests.UpdateConnection body) {
        return service.update(Caller.identity(request), id(connectionId), body);
    }

    @Delete("/aws-connections/{connectionId}")
    @Access(Action.AWS_CONNECTION_DELETE)
    HttpResponse<Void> delete(HttpRequest<?> request, String connectionId) {
        service.delete(Caller.identity(request), id(connectionId));
        return HttpResponse.noContent();
    }

    /** The connection id, already checked by the authorization of the route (which resolved its project). */
    private static UUID id(String connectionId) {
        return Authorizer.uuid("connectionId", connectionId);
    }
}
