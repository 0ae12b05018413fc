package dev.stockade.api.aws;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import jakarta.inject.Singleton;
import java.util.List;

/** AWS connections as an MCP tool, so an agent helping with setup can see which connections a policy may name. */
@Singleton
record AwsConnectionTools(AwsConnectionService connections) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(new PlatformTool("list_aws_connections", "List a project's AWS connections (role, region,"
                + " external ID, session duration).", ToolFamily.DAY_TO_DAY, Action.AWS_CONNECTION_LIST,
                Schema.inProject().required("projectId"),
                (caller, grant, args) -> new AwsConnectionController.AwsConnections(
                        connections.list(grant.projectId()))));
    }
}
