package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.connectors.GrantedTools;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.mcp.ToolCalls;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.UUID;

/**
 * Connector tool calls over REST, with the MCP endpoint's rules and audit: {@code /v1/mcp-servers/{serverId}/tools/call}
 * names the connector's own tool; {@code /v1/projects/{projectId}/mcp-servers/tools/call} names a tool as the project
 * endpoint lists it. The answer is the tool's result ({@code content}, {@code isError}); a tool the caller's policies
 * do not grant is 404, exactly like one that does not exist.
 */
@Controller("/v1")
@Tag(name = "connectors")
record ToolCallController(ToolCalls calls, GrantedTools granted) {
    /** A tool call: the tool's name and its arguments (an object). */
    record CallInput(@Nullable String name, @Nullable JsonNode arguments) {
    }

    /**
     * The shape of a tool's result (MCP's {@code CallToolResult}), for the OpenAPI document: the answer is the
     * upstream's result as it came, or the platform's own for a refusal or a failure, so it is passed on as JSON
     * rather than rebuilt from this record.
     */
    @Introspected
    record ToolResult(List<JsonNode> content, @Nullable JsonNode structuredContent, boolean isError) {
    }

    @Post("/mcp-servers/{serverId}/tools/call")
    @Access(Action.CONNECTOR_TOOLS_CALL)
    @ApiResponse(responseCode = "200", description = "the tool's result",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ToolResult.class)))
    JsonNode callOnServer(HttpRequest<?> request, String serverId, @Body CallInput body) {
        UUID server = Authorizer.uuid("serverId", serverId);
        Grant grant = Caller.grant(request);
        String tool = name(body);
        String exposed = granted.of(Caller.identity(request), grant.projectId()).stream()
                .filter(e -> e.connector().id().equals(server) && e.tool().name().equals(tool))
                .map(GrantedTools.Exposed::name).findFirst()
                .orElse(tool + " (connector " + server + ")"); // never a listed name: refused and audited as unknown
        return call(request, grant.projectId(), exposed, body);
    }

    @Post("/projects/{projectId}/mcp-servers/tools/call")
    @Access(Action.PROJECT_TOOLS_CALL)
    @ApiResponse(responseCode = "200", description = "the tool's result",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ToolResult.class)))
    JsonNode callInProject(HttpRequest<?> request, String projectId, @Body CallInput body) {
        return call(request, Caller.grant(request).projectId(), name(body), body);
    }

    private JsonNode call(HttpRequest<?> request, UUID projectId, String name, CallInput body) {
        try {
            return calls.call(Caller.identity(request), projectId, name, body.arguments(),
                    ToolCalls.Origin.of("rest", request), true);
        } catch (ToolCalls.UnknownTool e) {
            throw ApiProblem.notFound("tool `" + (name.length() > 80 ? name.substring(0, 80) : name) + "`");
        }
    }

    private static String name(CallInput body) {
        if (body.name() == null || body.name().isBlank()) {
            throw ApiProblem.invalid("/name", "required", "`name` (the tool's name) is required");
        }
        return body.name();
    }
}
