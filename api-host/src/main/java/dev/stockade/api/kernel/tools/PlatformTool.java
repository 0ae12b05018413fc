package dev.stockade.api.kernel.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.identity.Identity;

/**
 * A platform operation offered as an MCP tool. It runs the same service method as its REST route, after the same
 * authorization: {@code action}'s scope names the argument that carries the organization, project or connector id.
 *
 * @param inputSchema a JSON Schema object for the arguments
 */
public record PlatformTool(String name, String description, ToolFamily family, Action action, ObjectNode inputSchema,
                           Handler handler) {

    /** Runs the operation for an authorized caller; returns what the REST route would answer (null: no content). */
    @FunctionalInterface
    public interface Handler {
        Object run(Identity caller, Grant grant, JsonNode arguments);
    }

    /** A feature's tools; the MCP endpoint collects every bean of this type. */
    public interface Provider {
        java.util.List<PlatformTool> tools();
    }
}
