package dev.stockade.api.connectors;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.UUID;

/**
 * How a connector is reached and what of it is shown: its credentials (static or OAuth, never returned), the OAuth
 * authorization (start, and the callback the authorization server redirects to), the operator's OAuth applications,
 * its tool entries and their visibility, and the discovery of a protected resource's authorization servers.
 */
@Controller("/v1")
@Tag(name = "connectors")
record ConnectorAccessController(ConnectorService connectors, ConnectorCredentials credentials, ConnectorOAuth oauth,
        ResourceMetadata metadata) {
    /** A static credential ({@code secret}, optional {@code headerFormat}) or an OAuth one ({@code application}). */
    record CredentialBody(@Nullable String name, @Nullable String secret, @Nullable String headerFormat,
                          @Nullable String application) {
        @Override
        public String toString() {
            return "CredentialBody[" + name + "]"; // never the secret
        }
    }

    @Post("/projects/{projectId}/mcp-servers/{serverId}/credentials")
    @Status(HttpStatus.CREATED)
    @Access(Action.CONNECTORS_WRITE)
    ConnectorCredentials.View create(HttpRequest<?> request, String projectId, String serverId,
                                     @Body CredentialBody body) {
        Connector c = inProject(request, serverId);
        return credentials.create(Caller.identity(request), Caller.grant(request), c, body.name(), body.secret(),
                body.headerFormat(), body.application());
    }

    @Get("/projects/{projectId}/mcp-servers/{serverId}/credentials")
    @Access(Action.CONNECTORS_READ)
    ConnectorViews.CredentialList list(HttpRequest<?> request, String projectId, String serverId) {
        return new ConnectorViews.CredentialList(credentials.list(inProject(request, serverId).id()));
    }

    @Delete("/projects/{projectId}/mcp-servers/{serverId}/credentials/{credentialId}")
    @Access(Action.CONNECTORS_WRITE)
    HttpResponse<Void> delete(HttpRequest<?> request, String projectId, String serverId, String credentialId) {
        credentials.delete(Caller.identity(request), Caller.grant(request), inProject(request, serverId).id(),
                Authorizer.uuid("credentialId", credentialId));
        return HttpResponse.noContent();
    }

    @Post("/projects/{projectId}/mcp-servers/{serverId}/credentials/{credentialId}/oauth/start")
    @Access(Action.CONNECTORS_WRITE)
    ConnectorViews.OAuthStart start(HttpRequest<?> request, String projectId, String serverId, String credentialId) {
        ConnectorCredentials.View v = credentials.get(inProject(request, serverId).id(),
                Authorizer.uuid("credentialId", credentialId));
        if (v.application() == null) {
            throw ApiProblem.invalid("/credentialId", "oauth", "credential `" + v.name() + "` is a static secret, not"
                    + " an OAuth credential");
        }
        return new ConnectorViews.OAuthStart(oauth.start(v.id(), v.application()), oauth.redirectUri(),
                ConnectorOAuth.STATE_LIFETIME.toSeconds());
    }

    @Get(value = "/oauth/connector-callback", produces = MediaType.TEXT_PLAIN)
    @Access(Action.CONNECTOR_OAUTH_CALLBACK)
    String callback(@Nullable @QueryValue String state, @Nullable @QueryValue String code,
                    @Nullable @QueryValue String error) {
        if (error != null) {
            throw ApiProblem.invalid("/error", "oauth", "the authorization server refused: " + error.substring(0,
                    Math.min(error.length(), 100)));
        }
        if (state == null || code == null) {
            throw ApiProblem.invalid("/code", "required", "`state` and `code` are required");
        }
        oauth.complete(state, code);
        return "The connector credential is connected. You can close this window.\n";
    }

    @Get("/projects/{projectId}/oauth-applications")
    @Access(Action.OAUTH_APPLICATIONS_READ)
    ConnectorViews.Applications applications(String projectId) {
        return new ConnectorViews.Applications(oauth.applications().stream().map(ConnectorViews.Application::of).toList());
    }

    @Get("/mcp-servers/{serverId}/entries")
    @Access(Action.CONNECTOR_READ)
    ConnectorViews.Entries entries(String serverId) {
        return new ConnectorViews.Entries(connectors.entries(ConnectorController.id(serverId)));
    }

    /** A tool entry shown or hidden. */
    record Visibility(@Nullable Boolean visible) {
    }

    @Put("/mcp-servers/{serverId}/entries/{entryName}/visibility")
    @Access(Action.CONNECTOR_WRITE)
    ConnectorViews.EntryVisibility visibility(HttpRequest<?> request, String serverId, String entryName,
                                              @Body Visibility body) {
        if (body.visible() == null) {
            throw ApiProblem.invalid("/visible", "required", "`visible` (true or false) is required");
        }
        return connectors.setVisibility(Caller.identity(request), Caller.grant(request),
                ConnectorController.id(serverId), entryName, body.visible());
    }

    /** Where to look: a URL of the resource (its MCP endpoint), or the connector's own URL when absent. */
    record UrlBody(@Nullable String url) {
    }

    @Post("/mcp-servers/{serverId}/discover/url")
    @Access(Action.CONNECTOR_WRITE)
    ConnectorViews.AuthorizationDiscovery discoverUrl(String serverId, @Nullable @Body UrlBody body) {
        Connector c = connectors.get(ConnectorController.id(serverId));
        return metadata.discover(ConnectorService.url(body == null || body.url() == null ? c.url() : body.url()),
                oauth.applications());
    }

    /** The connector, which must belong to the project the path names (404 otherwise, as for an unknown id). */
    private Connector inProject(HttpRequest<?> request, String serverId) {
        Grant grant = Caller.grant(request);
        UUID id = ConnectorController.id(serverId);
        Connector c = connectors.get(id);
        if (!c.projectId().equals(grant.projectId())) {
            throw ApiProblem.notFound("connector `" + id + "`");
        }
        return c;
    }
}
