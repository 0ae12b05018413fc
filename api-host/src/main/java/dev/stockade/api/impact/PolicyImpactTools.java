package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Policy impact as MCP tools, the same service as the REST routes, so that an agent or the UI can show what a change
 * breaks before it is saved: {@code policy_impact} over an organization, {@code project_policy_impact} over a project.
 */
@Singleton
record PolicyImpactTools(PolicyImpactService service) implements PlatformTool.Provider {
    private static final String WHAT = " under candidate policy documents (each replaces the stored policy of its"
            + " name), and report what would be newly denied, newly allowed or unchanged. Window at most 7 days.";

    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("policy_impact", "Replay an organization's recorded egress decisions and tool calls"
                        + WHAT, ToolFamily.DAY_TO_DAY, Action.POLICY_IMPACT_ORG, arguments(Schema.inOrg(), "orgId"),
                        (caller, grant, args) -> service.replay(grant, body(args))),
                new PlatformTool("project_policy_impact", "Replay a project's recorded egress decisions and tool calls"
                        + WHAT, ToolFamily.DAY_TO_DAY, Action.POLICY_IMPACT_PROJECT,
                        arguments(Schema.inProject(), "projectId"),
                        (caller, grant, args) -> service.replay(grant, body(args))));
    }

    /** The scope's id, the window, and the candidates as arrays of policy documents. */
    private static ObjectNode arguments(Schema scope, String id) {
        ObjectNode schema = scope.string("since", "Start of the window, ISO 8601 instant")
                .string("until", "End of the window, ISO 8601 instant (default: now)").required(id, "since");
        ObjectNode properties = (ObjectNode) schema.get("properties");
        documents(properties, "policies", "Candidate policy documents; each replaces the stored policy of its name");
        documents(properties, "ceiling", "A candidate org ceiling (policy documents) replacing the stored one");
        return schema;
    }

    private static void documents(ObjectNode properties, String name, String description) {
        properties.putObject(name).put("type", "array").put("description", description).putObject("items")
                .put("type", "object");
    }

    /** The request body the REST route reads: the arguments without the scope's id. */
    private static String body(JsonNode args) {
        ObjectNode body = args.deepCopy();
        body.remove(List.of("orgId", "projectId"));
        return body.toString();
    }
}
