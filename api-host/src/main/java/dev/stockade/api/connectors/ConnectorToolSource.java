package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.GrantedTool;
import dev.stockade.api.kernel.tools.GrantedToolSource;
import dev.stockade.api.kernel.tools.ToolCallFailure;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.UUID;

/** The connector tools a caller's policies grant, offered to the MCP server through the kernel's tool source. */
@Singleton
record ConnectorToolSource(GrantedTools granted, ConnectorCalls calls) implements GrantedToolSource {
    @Override
    public List<Topic> topics() {
        return GrantedTools.TOPICS;
    }

    @Override
    public long generation() {
        return granted.generation();
    }

    @Override
    public void invalidate() {
        granted.invalidate();
    }

    @Override
    public List<GrantedTools.Exposed> of(Identity caller, @Nullable UUID projectId) {
        return granted.of(caller, projectId);
    }

    @Override
    public JsonNode call(GrantedTool tool, JsonNode arguments) throws ToolCallFailure {
        if (!(tool instanceof GrantedTools.Exposed exposed)) {
            throw new IllegalArgumentException("not a connector tool: " + tool.name());
        }
        try {
            return calls.call(exposed, arguments);
        } catch (UpstreamClient.Halted e) {
            throw new ToolCallFailure(ToolCallFailure.Kind.HALTED, e.getMessage());
        } catch (UpstreamClient.ArgumentException e) {
            throw new ToolCallFailure(ToolCallFailure.Kind.INVALID_ARGUMENTS, e.getMessage());
        } catch (UpstreamClient.UpstreamException e) {
            throw new ToolCallFailure(ToolCallFailure.Kind.UPSTREAM_FAILED, e.getMessage());
        }
    }
}
