package dev.stockade.api.mcp;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.ScopePath;
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
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.http.sse.Event;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.UUID;
import org.reactivestreams.Publisher;

/**
 * The MCP endpoints at the root (spec: "MCP endpoint"): {@code /mcp} organization-wide and
 * {@code /projects/{projectId}/mcp} for one project. POST carries JSON-RPC ({@link McpServer}); GET opens the
 * session's notification stream ({@link ListChanged}); DELETE ends the session. The OpenAPI document describes the
 * JSON-RPC answer's envelope ({@link JsonRpcAnswer}); the methods and their results are MCP's.
 */
@Controller

record McpController(McpServer server, McpSessions sessions, ListChanged listChanged) {
    @Post(uris = {"/mcp", "/projects/{projectId}/mcp"}, consumes = MediaType.ALL,
            produces = MediaType.APPLICATION_JSON)
    @Access({Action.MCP, Action.PROJECT_MCP})
    @ApiResponse(responseCode = "200", description = "the JSON-RPC answer to a request",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JsonRpcAnswer.class)))
    @ApiResponse(responseCode = "202", description = "a notification or a client's response: nothing to answer")
    HttpResponse<?> post(HttpRequest<?> request, @RequestBean ScopePath scope, @Nullable @Body String body) {
        UUID projectId = project(scope);
        return server.post(context(request, projectId, projectId == null ? "mcp" : "project-mcp"), body);
    }

    @Get(uris = {"/mcp", "/projects/{projectId}/mcp"}, produces = MediaType.TEXT_EVENT_STREAM)
    @Access({Action.MCP, Action.PROJECT_MCP})
    Publisher<Event<String>> stream(HttpRequest<?> request, @RequestBean ScopePath scope) {
        UUID projectId = project(scope);
        session(request, projectId); // the stream belongs to an initialized session of this caller
        return listChanged.open(Caller.identity(request), projectId);
    }

    @Delete(uris = {"/mcp", "/projects/{projectId}/mcp"})
    @Access({Action.MCP, Action.PROJECT_MCP})
    @ApiResponse(responseCode = "204", description = "the session is closed")
    HttpResponse<?> end(HttpRequest<?> request, @RequestBean ScopePath scope) {
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

    /** The project whose endpoint was called; null at the organization-wide one. */
    private static @Nullable UUID project(ScopePath scope) {
        return scope.projectId() == null ? null : Authorizer.uuid("projectId", scope.projectId());
    }
}
