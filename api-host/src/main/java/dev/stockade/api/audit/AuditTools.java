package dev.stockade.api.audit;

import dev.stockade.api.audit.AuditQuery;
import dev.stockade.api.audit.AuditTrail;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import dev.stockade.api.kernel.web.ApiProblem;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The audit trail as an MCP tool: the same filters and pages as {@code GET /v1/orgs/{orgId}/audit-trail}. */
@Singleton
record AuditTools(AuditTrail trail) implements PlatformTool.Provider {
    private static final List<String> FILTERS = List.of("kind", "action", "actorId", "projectId", "outcome", "from",
            "to", "cursor");

    @Override
    public List<PlatformTool> tools() {
        return List.of(new PlatformTool("query_audit", "Read an organization's audit trail, newest first, with"
                + " optional filters; pass nextCursor back as cursor for the next page.", ToolFamily.DAY_TO_DAY,
                Action.AUDIT_READ, Schema.inOrg()
                        .string("kind", "Only entries of this kind (tool-call, policy, sandbox, ...)")
                        .string("action", "Only this action").string("actorId", "Only this actor")
                        .uuid("projectId", "Only this project").string("outcome", "success, error, denied, ...")
                        .string("from", "ISO-8601 instant, inclusive").string("to", "ISO-8601 instant, exclusive")
                        .string("cursor", "nextCursor of the previous page")
                        .integer("limit", "Entries per page, 1 to " + AuditQuery.MAX_LIMIT + " (default 50)")
                        .required("orgId"),
                (caller, grant, args) -> {
                    Map<String, String> q = new HashMap<>();
                    for (String f : FILTERS) {
                        if (args.hasNonNull(f)) {
                            q.put(f, args.get(f).asText());
                        }
                    }
                    if (args.has("limit")) {
                        if (!args.get("limit").canConvertToInt()) {
                            throw ApiProblem.invalid("/limit", "type", "`limit` must be an integer");
                        }
                        q.put("limit", Integer.toString(args.get("limit").asInt()));
                    }
                    return trail.page(grant.orgId(), AuditQuery.parse(q));
                }));
    }
}
