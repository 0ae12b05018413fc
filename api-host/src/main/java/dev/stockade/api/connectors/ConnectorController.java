package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.connectors.ConnectorViews.ConnectorView;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import io.micronaut.core.annotation.Nullable;
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
import java.util.UUID;

/**
 * Connectors (spec: Connections): {@code /v1/projects/{projectId}/mcp-servers} to register and list,
 * {@code /v1/mcp-servers/{serverId}} to read and delete, {@code .../sync} to re-discover, pending specs with their
 * diff and promotion, and the checks a project admin runs before registering ({@code discover/preview},
 * {@code test-connection}).
 */
@Controller("/v1")
@Tag(name = "connectors")
record ConnectorController(ConnectorService service) {
    /** The body of a registration or a check: a name (registration only) and the upstream's URL. */
    record ServerInput(@Nullable String name, @Nullable String url) {
    }

    @Post("/projects/{projectId}/mcp-servers")
    @Status(HttpStatus.CREATED)
    @Access(Action.CONNECTORS_WRITE)
    ConnectorView register(HttpRequest<?> request, String projectId, @Body ServerInput body) {
        return service.register(Caller.identity(request), Caller.grant(request), body.name(), body.url()).view();
    }

    @Get("/projects/{projectId}/mcp-servers")
    @Access(Action.CONNECTORS_READ)
    ConnectorViews.Connectors list(HttpRequest<?> request, String projectId) {
        return new ConnectorViews.Connectors(service.list(Caller.grant(request)).stream().map(Connector::view).toList());
    }

    @Post("/projects/{projectId}/mcp-servers/discover/preview")
    @Access(Action.CONNECTORS_WRITE)
    ConnectorViews.Preview preview(HttpRequest<?> request, String projectId, @Body ServerInput body) {
        ConnectorService.Discovery found = service.discover(ConnectorService.url(body.url()));
        return new ConnectorViews.Preview(found.error() == null, found.error(), found.tools().stream()
                .map(t -> new ConnectorViews.DiscoveredTool(t.name(), t.description(), t.inputSchema())).toList());
    }

    @Post("/projects/{projectId}/mcp-servers/test-connection")
    @Access(Action.CONNECTORS_WRITE)
    ConnectorViews.ConnectionCheck testConnection(HttpRequest<?> request, String projectId, @Body ServerInput body) {
        long start = System.nanoTime();
        ConnectorService.Discovery found = service.discover(ConnectorService.url(body.url()));
        return new ConnectorViews.ConnectionCheck(found.error() == null, found.error(), found.tools().size(),
                (System.nanoTime() - start) / 1_000_000);
    }

    @Get("/mcp-servers/{serverId}")
    @Access(Action.CONNECTOR_READ)
    ConnectorView get(String serverId) {
        return service.get(id(serverId)).view();
    }

    @Delete("/mcp-servers/{serverId}")
    @Access(Action.CONNECTOR_WRITE)
    HttpResponse<Void> delete(HttpRequest<?> request, String serverId) {
        service.delete(Caller.identity(request), Caller.grant(request), id(serverId));
        return HttpResponse.noContent();
    }

    /** A re-discovery; for an HTTP connector registered from an inline document, the new {@code document}. */
    record SyncInput(@Nullable JsonNode document) {
    }

    @Post("/mcp-servers/{serverId}/sync")
    @Access(Action.CONNECTOR_WRITE)
    ConnectorViews.SyncResult sync(HttpRequest<?> request, String serverId, @Nullable @Body SyncInput body) {
        return service.sync(Caller.identity(request), Caller.grant(request), id(serverId),
                body == null ? null : text(body.document()));
    }

    /**
     * An HTTP API from its OpenAPI 3 document: {@code document} (a JSON object, or JSON or YAML text) or
     * {@code documentUrl}; {@code baseUrl} when the document's first server is not where the API is.
     */
    record HttpInput(@Nullable String name, @Nullable String baseUrl, @Nullable JsonNode document,
                     @Nullable String documentUrl) {
    }

    @Post("/projects/{projectId}/mcp-servers/http")
    @Status(HttpStatus.CREATED)
    @Access(Action.CONNECTORS_WRITE)
    ConnectorView registerHttp(HttpRequest<?> request, String projectId, @Body HttpInput body) {
        return service.registerHttp(Caller.identity(request), Caller.grant(request), body.name(), body.baseUrl(),
                text(body.document()), body.documentUrl()).view();
    }

    private static String text(@Nullable JsonNode document) {
        return document == null || document.isNull() ? null : document.isTextual() ? document.asText()
                : document.toString();
    }

    @Get("/mcp-servers/{serverId}/specs/pending")
    @Access(Action.CONNECTOR_READ)
    ConnectorViews.Specs pending(String serverId) {
        return new ConnectorViews.Specs(service.pending(id(serverId)).stream().map(ConnectorViews.SpecView::of).toList());
    }

    @Get("/mcp-servers/{serverId}/specs/{specId}")
    @Access(Action.CONNECTOR_READ)
    ConnectorViews.SpecView spec(String serverId, String specId) {
        return ConnectorViews.SpecView.of(service.spec(id(serverId), Authorizer.uuid("specId", specId)));
    }

    @Get("/mcp-servers/{serverId}/specs/{specId}/diff")
    @Access(Action.CONNECTOR_READ)
    ConnectorViews.SpecDiff diff(String serverId, String specId) {
        return service.diff(id(serverId), Authorizer.uuid("specId", specId));
    }

    @Post("/mcp-servers/{serverId}/specs/{specId}/promote")
    @Access(Action.CONNECTOR_WRITE)
    ConnectorView promote(HttpRequest<?> request, String serverId, String specId) {
        return service.promote(Caller.identity(request), Caller.grant(request), id(serverId),
                Authorizer.uuid("specId", specId)).view();
    }

    static UUID id(String serverId) {
        return Authorizer.uuid("serverId", serverId);
    }
}
