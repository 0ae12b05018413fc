package dev.stockade.api.mcp;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.sse.Event;
import java.util.UUID;
import org.reactivestreams.Publisher;

/**
 * The MCP endpoints at the root (spec: "MCP endpoint"): {@code /mcp} organization-wide and
 * {@code /projects/{projectId}/mcp} for one project. POST carries JSON-RPC ({@link McpServer}); GET opens the
 * session's notification stream ({@link ListChanged}); DELETE ends the session. They are not REST routes, so the
 * OpenAPI document leaves them out.
 */
@Controller

class McpController {
    private final McpServer server;
    private final McpSessions sessions;
    private final ListChanged listChanged;

    McpController(McpServer server, McpSessions sessions, ListChanged listChanged) {
        this.server = server;
        this.sessions = sessions;
        this.listChanged = listChanged;
    }

    @Post(value = "/mcp", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    @Access(Action.MCP)
    HttpResponse<?> post(HttpRequest<?> request, @Nullable @Body String body) {
        return server.post(context(request, null, "mcp"), body);
    }

    @Post(value = "/projects/{projectId}/mcp", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    @Access(Action.PROJECT_MCP)
    HttpResponse<?> postProject(HttpRequest<?> request, String projectId, @Nullable @Body String body) {
        return server.post(context(request, project(projectId), "project-mcp"), body);
    }

    @Get(value = "/mcp", produces = MediaType.TEXT_EVENT_STREAM)
    @Access(Action.MCP)
    Publisher<Event<String>> stream(HttpRequest<?> request) {
        return open(request, null);
    }

    @Get(value = "/projects/{projectId}/mcp", produces = MediaType.TEXT_EVENT_STREAM)
    @Access(Action.PROJECT_MCP)
    Publisher<Event<String>> streamProject(HttpRequest<?> request, String projectId) {
        return open(request, project(projectId));
    }

    @Delete("/mcp")
    @Access(Action.MCP)
    HttpResponse<?> close(HttpRequest<?> request) {
        return end(request);
    }

    @Delete("/projects/{projectId}/mcp")
    @Access(Action.PROJECT_MCP)
    HttpResponse<?> closeProject(HttpRequest<?> request, String projectId) {
        return end(request);
    }

    private Publisher<Event<String>> open(HttpRequest<?> request, @Nullable UUID projectId) {
        session(request, projectId); // the stream belongs to an initialized session of this caller
        return listChanged.open(Caller.identity(request), projectId);
    }

    private HttpResponse<?> end(HttpRequest<?> request) {
        String id = request.getHeaders().get(McpServer.SESSION_HEADER);
        if (id == null || !sessions.close(Caller.identity(request), id)) {
            throw ApiProblem.notFound("MCP session");
        }
        return HttpResponse.noContent();
    }

    private McpSessions.Session session(HttpRequest<?> request, @Nullable UUID projectId) {
        String id = request.getHeaders().get(McpServer.SESSION_HEADER);
        if (id == null || id.isBlank()) {
            throw new ApiProblem(ProblemCode.BAD_REQUEST, "the " + McpServer.SESSION_HEADER
                    + " header is required: initialize a session with a POST first");
        }
        McpSessions.Session s = sessions.find(Caller.identity(request), projectId, id);
        if (s == null) {
            throw ApiProblem.notFound("MCP session");
        }
        return s;
    }

    private static McpServer.Request context(HttpRequest<?> request, @Nullable UUID projectId, String via) {
        return new McpServer.Request(Caller.identity(request), projectId,
                request.getHeaders().get(McpServer.SESSION_HEADER), request.getHeaders().get("MCP-Protocol-Version"),
                ToolCalls.Origin.of(via, request));
    }

    private static UUID project(String projectId) {
        return Authorizer.uuid("projectId", projectId);
    }
}
