package dev.stockade.api.connectors;

import static dev.stockade.api.kernel.tools.ToolArgs.text;
import static dev.stockade.api.kernel.tools.ToolArgs.uuid;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.Deleted;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import jakarta.inject.Singleton;
import java.util.List;

/** Connector management as MCP tools (people only): register, list, re-discover, review and promote specs, delete. */
@Singleton
record ConnectorTools(ConnectorService connectors) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("list_connectors", "List a project's connectors with their tools and status.",
                        ToolFamily.CONNECTOR_MANAGEMENT, Action.CONNECTORS_READ,
                        Schema.inProject().required("projectId"),
                        (caller, grant, args) -> new ConnectorViews.Connectors(connectors.list(grant).stream()
                                .map(Connector::view).toList())),
                new PlatformTool("register_connector", "Register an upstream MCP server (streamable HTTP) in a project"
                        + " and discover its tools; policies grant its tools by name.",
                        ToolFamily.CONNECTOR_MANAGEMENT, Action.CONNECTORS_WRITE,
                        Schema.inProject()
                                .string("name", "A short slug; it prefixes the connector's tool names")
                                .string("url", "The server's MCP endpoint (http or https)")
                                .required("projectId", "name", "url"),
                        (caller, grant, args) -> connectors.register(caller, grant, text(args, "name"),
                                text(args, "url")).view()),
                new PlatformTool("sync_connector", "Re-discover a connector's tools; a changed list becomes a pending"
                        + " spec that exposes nothing until promoted.", ToolFamily.CONNECTOR_MANAGEMENT,
                        Action.CONNECTOR_WRITE, server().required("serverId"),
                        (caller, grant, args) -> connectors.sync(caller, grant, uuid(args, "serverId"),
                                args.hasNonNull("document") ? args.get("document").toString() : null)),
                new PlatformTool("diff_connector_spec", "Compare a pending spec with the active one: tools added,"
                        + " removed and changed.", ToolFamily.CONNECTOR_MANAGEMENT, Action.CONNECTOR_READ,
                        server().uuid("specId", "The pending spec").required("serverId", "specId"),
                        (caller, grant, args) -> connectors.diff(uuid(args, "serverId"), uuid(args, "specId"))),
                new PlatformTool("promote_connector_spec", "Make a pending spec the active one.",
                        ToolFamily.CONNECTOR_MANAGEMENT, Action.CONNECTOR_WRITE,
                        server().uuid("specId", "The pending spec").required("serverId", "specId"),
                        (caller, grant, args) -> connectors.promote(caller, grant, uuid(args, "serverId"),
                                uuid(args, "specId")).view()),
                new PlatformTool("delete_connector", "Delete a connector; its tools disappear everywhere.",
                        ToolFamily.CONNECTOR_MANAGEMENT, Action.CONNECTOR_WRITE, server().required("serverId"),
                        (caller, grant, args) -> {
                            connectors.delete(caller, grant, uuid(args, "serverId"));
                            return new Deleted(uuid(args, "serverId"));
                        }));
    }

    private static Schema server() {
        return Schema.object().uuid("serverId", "The connector");
    }
}
