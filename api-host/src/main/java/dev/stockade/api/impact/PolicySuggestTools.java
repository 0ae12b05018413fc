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
 * Policy suggest as MCP tools, the same service as the REST routes, so that an agent can draft least privilege from
 * what a window of the trail actually used: {@code policy_suggest} over an organization, {@code project_policy_suggest}
 * over a project.
 */
@Singleton
record PolicySuggestTools(PolicySuggestService service) implements PlatformTool.Provider {
    private static final String WHAT = " the smallest policy (default deny) that would have allowed the egress and"
            + " connector tool calls it allowed: the policy as YAML with a header saying what it rests on and what was"
            + " left out. Window at most 7 days.";

    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("policy_suggest", "From a window of an organization's audit trail, suggest" + WHAT,
                        ToolFamily.DAY_TO_DAY, Action.POLICY_SUGGEST_ORG, arguments(Schema.inOrg(), "orgId"),
                        (caller, grant, args) -> service.suggest(grant, body(args))),
                new PlatformTool("project_policy_suggest", "From a window of a project's audit trail, suggest" + WHAT,
                        ToolFamily.DAY_TO_DAY, Action.POLICY_SUGGEST_PROJECT,
                        arguments(Schema.inProject(), "projectId"),
                        (caller, grant, args) -> service.suggest(grant, body(args))));
    }

    /** The scope's id, the window, one optional selector and the suggester's options. */
    private static ObjectNode arguments(Schema scope, String id) {
        ObjectNode schema = scope.string("since", "Start of the window, ISO 8601 instant")
                .string("until", "End of the window, ISO 8601 instant (default: now)")
                .uuid("sandbox", "Only this sandbox's egress and tool calls")
                .uuid("identity", "Only the tool calls of this person or API token (its id); not with sandbox")
                .integer("minSubdomains", "Distinct subdomains of one registrable domain, on one port, that become a"
                        + " wildcard (default 3, from 2 to " + SuggestRequest.MAX_THRESHOLD + ")")
                .integer("minPaths", "Distinct rules below one path prefix, for one method, that become prefix/**"
                        + " (default 4, from 2 to " + SuggestRequest.MAX_THRESHOLD + ")")
                .string("name", "The suggested policy's name (default: suggested)").required(id, "since");
        return schema;
    }

    /** The request body the REST route reads: the arguments without the scope's id. */
    private static String body(JsonNode args) {
        ObjectNode body = args.deepCopy();
        body.remove(List.of("orgId", "projectId"));
        return body.toString();
    }
}
