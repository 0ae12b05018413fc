package dev.stockade.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.audit.AuditAppender;
import dev.stockade.api.audit.AuditEvent;
import dev.stockade.api.connectors.ConnectorCalls;
import dev.stockade.api.connectors.UpstreamClient;
import dev.stockade.api.identity.ClusterTokens;
import dev.stockade.api.identity.Identity;
import dev.stockade.api.web.ApiProblem;
import dev.stockade.api.web.Authorizer;
import dev.stockade.api.web.Grant;
import dev.stockade.api.web.ProblemCode;
import dev.stockade.api.web.Scope;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@code tools/call}, from the MCP endpoint or the REST tool-call routes, and writes it to the audit trail
 * (caller, tool, project, result, duration, and the original caller when proxies forwarded the request), denied
 * calls included. A platform tool is authorized by the action table as its REST route is; a connector tool goes to
 * its upstream under the organization's halt. Failures are tool results with {@code isError} and a problem-details
 * text; only a name the caller cannot list is refused outright ({@link UnknownTool}).
 */
@Singleton
public class ToolCalls {
    private static final Logger LOG = LoggerFactory.getLogger(ToolCalls.class);

    /** Where a call came from, for the audit entry. */
    public record Origin(String via, @Nullable String forwardedFor) {
    }

    /** The caller cannot list a tool of that name: refused like an unknown tool. */
    public static final class UnknownTool extends RuntimeException {
        public UnknownTool(String name) {
            super("Unknown tool: " + (name.length() > 80 ? name.substring(0, 80) + "…" : name));
        }
    }

    private final ToolCatalog catalog;
    private final Authorizer authorizer;
    private final ConnectorCalls connectors;
    private final AuditAppender audit;
    private final ObjectMapper json;
    private final ClusterTokens projects;

    public ToolCalls(ToolCatalog catalog, Authorizer authorizer, ConnectorCalls connectors, AuditAppender audit,
                     ObjectMapper json, ClusterTokens projects) {
        this.projects = projects;
        this.catalog = catalog;
        this.authorizer = authorizer;
        this.connectors = connectors;
        this.audit = audit;
        this.json = json;
    }

    /** Calls {@code name} as {@code caller} sees it at the endpoint of {@code projectId} (null: organization-wide). */
    public ObjectNode call(Identity caller, @Nullable UUID projectId, String name, JsonNode arguments, Origin origin) {
        return call(caller, projectId, name, arguments, origin, false);
    }

    /** As above; {@code connectorsOnly}: a platform tool's name is unknown (the REST connector tool-call routes). */
    public ObjectNode call(Identity caller, @Nullable UUID projectId, String name, JsonNode arguments, Origin origin,
                           boolean connectorsOnly) {
        long start = System.nanoTime();
        ToolCatalog.Entry entry = catalog.find(caller, projectId, name);
        if (entry == null || connectorsOnly && entry.connector() == null) {
            record(caller, orgOf(caller, projectId), projectId, name, "denied", start, origin,
                    Map.of("reason", "unknown-tool"));
            throw new UnknownTool(name);
        }
        JsonNode args = arguments == null || arguments.isNull() ? json.createObjectNode() : arguments;
        if (!args.isObject()) {
            return failed(caller, null, projectId, name, start, origin, ProblemCode.VALIDATION_FAILED,
                    "`arguments` must be an object", "error");
        }
        return entry.platform() != null ? platform(caller, projectId, entry.platform(), args, origin, start)
                : connector(caller, entry, args, origin, start);
    }

    private ObjectNode platform(Identity caller, @Nullable UUID endpointProject, PlatformTool tool, JsonNode args,
                                Origin origin, long start) {
        Grant grant;
        try {
            grant = authorizer.authorize(caller, tool.action(), scopeVariables(tool, args, endpointProject));
            if (endpointProject != null && grant.projectId() != null && !endpointProject.equals(grant.projectId())) {
                throw new ApiProblem(ProblemCode.FORBIDDEN, "this endpoint serves project `" + endpointProject
                        + "`; the connector belongs to another project");
            }
        } catch (ApiProblem p) {
            return failed(caller, null, endpointProject, tool.name(), start, origin, p.code(), p.detail(), "denied");
        }
        try {
            Object out = tool.handler().run(caller, grant, args);
            JsonNode value = out == null ? json.createObjectNode() : json.valueToTree(out);
            record(caller, grant.orgId(), grant.projectId(), tool.name(), "success", start, origin, Map.of());
            return result(value, false);
        } catch (ApiProblem p) {
            return failed(caller, grant.orgId(), grant.projectId(), tool.name(), start, origin, p.code(), p.detail(),
                    "error");
        } catch (RuntimeException e) {
            LOG.error("platform tool {} failed", tool.name(), e);
            return failed(caller, grant.orgId(), grant.projectId(), tool.name(), start, origin, ProblemCode.INTERNAL,
                    "the tool failed; the platform's log has the details", "error");
        }
    }

    private ObjectNode connector(Identity caller, ToolCatalog.Entry entry, JsonNode args, Origin origin, long start) {
        var c = entry.connector().connector();
        Map<String, Object> details = Map.of("connectorId", c.id().toString(), "upstreamTool",
                entry.connector().tool().name());
        try {
            JsonNode result = connectors.call(entry.connector(), args);
            boolean isError = result.path("isError").asBoolean(false);
            record(caller, c.orgId(), c.projectId(), entry.name(), isError ? "error" : "success", start, origin,
                    details);
            return (ObjectNode) result;
        } catch (UpstreamClient.UpstreamException e) {
            boolean cancelled = e.getMessage().contains("halted");
            Map<String, Object> more = new HashMap<>(details);
            more.put("error", e.getMessage());
            record(caller, c.orgId(), c.projectId(), entry.name(), cancelled ? "cancelled" : "error", start, origin,
                    more);
            ProblemCode code = cancelled ? ProblemCode.HALTED : e instanceof UpstreamClient.ArgumentException
                    ? ProblemCode.VALIDATION_FAILED : ProblemCode.UPSTREAM_FAILED;
            return result(problem(code, e.getMessage()), true);
        }
    }

    /** The organization a refused call is recorded in: the endpoint project's, or the caller's own. */
    @Nullable
    private UUID orgOf(Identity caller, @Nullable UUID projectId) {
        if (projectId != null) {
            return projects.orgOf(projectId).orElse(null);
        }
        if (caller instanceof Identity.ApiToken a) {
            return a.orgId();
        }
        return caller instanceof Identity.SandboxToken s ? s.orgId() : null;
    }

    /** The path variables the tool's action needs, from its arguments (a project endpoint supplies its project). */
    private static Map<String, Object> scopeVariables(PlatformTool tool, JsonNode args, @Nullable UUID endpoint) {
        Map<String, Object> vars = new HashMap<>();
        Scope scope = tool.action().scope();
        if (scope == Scope.NONE) {
            return vars;
        }
        String variable = scope.variable();
        String given = args.path(variable).asText(null);
        if (scope == Scope.PROJECT && endpoint != null) {
            if (given != null && !given.equals(endpoint.toString())) {
                throw new ApiProblem(ProblemCode.FORBIDDEN, "this endpoint serves project `" + endpoint
                        + "`; use its own endpoint or /mcp for another project");
            }
            given = endpoint.toString();
        }
        if (given == null) {
            throw ApiProblem.invalid("/" + variable, "required", "`" + variable + "` is required");
        }
        vars.put(variable, given);
        return vars;
    }

    private ObjectNode failed(Identity caller, UUID orgId, UUID projectId, String name, long start, Origin origin,
                              ProblemCode code, String detail, String outcome) {
        record(caller, orgId, projectId, name, outcome, start, origin, Map.of("code", code.code()));
        return result(problem(code, detail), true);
    }

    private ObjectNode problem(ProblemCode code, String detail) {
        ObjectNode p = json.createObjectNode();
        p.put("title", code.title()).put("status", code.status().getCode()).put("code", code.code())
                .put("detail", detail);
        return p;
    }

    private ObjectNode result(JsonNode value, boolean isError) {
        ObjectNode r = json.createObjectNode();
        r.putArray("content").addObject().put("type", "text").put("text", value.toPrettyString());
        if (value.isObject()) {
            r.set("structuredContent", value);
        }
        r.put("isError", isError);
        return r;
    }

    private void record(Identity caller, UUID orgId, UUID projectId, String tool, String outcome, long start,
                        Origin origin, Map<String, Object> extra) {
        Map<String, Object> details = new LinkedHashMap<>(extra);
        details.put("tool", tool);
        details.put("via", origin.via());
        details.put("durationMs", (System.nanoTime() - start) / 1_000_000);
        if (origin.forwardedFor() != null) {
            details.put("originalCaller", origin.forwardedFor());
        }
        try {
            audit.append(new AuditEvent(orgId, projectId, "tool-call", "call", false, outcome, caller.type(),
                    caller.actorId(), tool, details)).join();
        } catch (RuntimeException e) {
            LOG.error("the audit entry of tool call {} was not stored", tool, e);
            throw new ApiProblem(ProblemCode.INTERNAL, "the call could not be audited");
        }
    }
}
