package dev.stockade.api.kernel.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.UUID;

/**
 * Where the tools granted per caller come from (the connectors feature implements it). The MCP server lists and
 * calls them through this interface, so it never imports the feature, and follows the generation to tell clients
 * that their list changed.
 */
public interface GrantedToolSource {
    /** The event topics whose events can change what a caller is granted. */
    List<Topic> topics();

    /** Moves on with every change that can alter any caller's list (a listing is cached under it). */
    long generation();

    /** Forgets every computed list; the next read recomputes. */
    void invalidate();

    /** The tools {@code caller} is granted at an endpoint ({@code projectId} null: the organization-wide one). */
    List<? extends GrantedTool> of(Identity caller, @Nullable UUID projectId);

    /** Calls one of the tools {@link #of} returned: its {@code CallToolResult}, or why there is none. */
    JsonNode call(GrantedTool tool, JsonNode arguments) throws ToolCallFailure;
}
