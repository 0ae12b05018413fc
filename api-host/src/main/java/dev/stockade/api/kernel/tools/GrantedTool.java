package dev.stockade.api.kernel.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Nullable;
import java.util.Map;
import java.util.UUID;

/**
 * A tool a feature grants one caller beyond the platform's own (a connector's tool), as the MCP server lists and
 * calls it without knowing which feature serves it.
 */
public interface GrantedTool {
    /** The name the caller sees (unique in its list). */
    String name();

    /** The description the caller sees. */
    String description();

    /** The JSON Schema of its arguments. */
    JsonNode inputSchema();

    /** The organization a call is recorded in. */
    UUID orgId();

    /** The project a call is recorded in, if the tool belongs to one. */
    @Nullable
    UUID projectId();

    /** What the audit entry of a call names besides the tool (which upstream and which of its tools served it). */
    Map<String, Object> callDetails();
}
