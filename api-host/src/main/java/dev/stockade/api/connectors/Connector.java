package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A registered connector of a project: an upstream MCP server (streamable HTTP, {@code kind} {@code mcp}) or an HTTP
 * API described by an OpenAPI 3 document ({@code http}: {@code url} is the API's base, {@code documentUrl} where the
 * document is re-read on sync, null when it was given inline), with the tools of its active spec
 * ({@code activeSpecId} null until a discovery succeeded). {@code status} is {@code ready} or {@code error} (the last
 * discovery failed: {@code lastError} says why).
 */
public record Connector(UUID id, UUID orgId, UUID projectId, String name, String kind, String url,
                        @Nullable String documentUrl, String status,
                        @Nullable String lastError, String createdBy, Instant createdAt, @Nullable Instant syncedAt,
                        @Nullable UUID activeSpecId, List<UpstreamClient.Tool> tools) {
    public Connector {
        tools = List.copyOf(tools);
    }

    /** The tool of the active spec named {@code name}, or null. */
    @Nullable
    public UpstreamClient.Tool tool(String name) {
        return tools.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }

    /** The JSON form of a tool list as specs store it. */
    static ArrayNode json(List<UpstreamClient.Tool> tools) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (UpstreamClient.Tool t : tools) {
            var o = out.addObject().put("name", t.name()).put("description", t.description());
            o.set("inputSchema", t.inputSchema());
            if (t.operation() != null) {
                o.set("operation", t.operation());
            }
        }
        return out;
    }

    static List<UpstreamClient.Tool> tools(JsonNode stored) {
        List<UpstreamClient.Tool> out = new ArrayList<>();
        stored.forEach(t -> out.add(new UpstreamClient.Tool(t.path("name").asText(), t.path("description").asText(""),
                t.path("inputSchema"), t.has("operation") ? t.get("operation") : null)));
        return out;
    }

    /** The connector as the API shows it. */
    public ConnectorViews.ConnectorView view() {
        return new ConnectorViews.ConnectorView(id, projectId, name, kind, url,
                kind.equals("http") ? Optional.ofNullable(documentUrl) : null, status, lastError, activeSpecId,
                tools.stream().map(t -> new ConnectorViews.ToolSummary(t.name(), t.description())).toList(),
                createdBy, createdAt, syncedAt);
    }
}
