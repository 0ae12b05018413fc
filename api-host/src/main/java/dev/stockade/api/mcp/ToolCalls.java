package dev.stockade.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.access.Scope;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.identity.ClusterTokens;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.GrantedTool;
import dev.stockade.api.kernel.tools.GrantedToolSource;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.ToolCallFailure;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
        /** The origin of an HTTP request: {@code via} and the first address of {@code X-Forwarded-For}. */
        public static Origin of(String via, HttpRequest<?> request) {
            String chain = request.getHeaders().get("X-Forwarded-For");
            if (chain == null || chain.isBlank()) {
                return new Origin(via, null);
            }
            String first = chain.split(",", 2)[0].strip();
            return new Origin(via, first.length() > 100 ? first.substring(0, 100) : first);
        }
    }

    /** The caller cannot list a tool of that name: refused like an unknown tool. */
    public static final class UnknownTool extends RuntimeException {
        public UnknownTool(String name) {
            super("Unknown tool: " + (name.length() > 80 ? name.substring(0, 80) + "…" : name));
        }
    }

    private final ToolCatalog catalog;
    private final Authorizer authorizer;
    private final GrantedToolSource connectors;
    private final AuditAppender audit;
    private final ObjectMapper json;
    private final ClusterTokens projects;
    private final Problems problems;

    public ToolCalls(ToolCatalog catalog, Authorizer authorizer, GrantedToolSource connectors, AuditAppender audit,
                     ObjectMapper json, ClusterTokens projects, Problems problems) {
        this.problems = problems;
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
        if (entry == null || connectorsOnly && entry.granted() == null) {
            record(caller, orgOf(caller, projectId), projectId, name, AuditOutcome.DENIED, start, origin,
                    Map.of("reason", "unknown-tool"));
            throw new UnknownTool(name);
        }
        JsonNode args = arguments == null || arguments.isNull() ? json.createObjectNode() : arguments;
        if (!args.isObject()) {
            return failed(caller, null, projectId, name, start, origin, ProblemCode.VALIDATION_FAILED,
                    "`arguments` must be an object", AuditOutcome.ERROR);
        }
        return entry.platform() != null ? platform(caller, projectId, entry.platform(), args, origin, start)
                : connector(caller, entry, args, origin, start);
    }

    private ObjectNode platform(Identity caller, @Nullable UUID endpointProject, PlatformTool tool, JsonNode args,
                                Origin origin, long start) {
        Grant grant;
        try {
            grant = authorizer.authorizeAt(caller, tool.action(), scopeVariables(tool, args, endpointProject),
                    endpointProject);
        } catch (ApiProblem p) {
            return failed(caller, null, endpointProject, tool.name(), start, origin, p.code(), p.detail(),
                    AuditOutcome.DENIED);
        }
        try {
            Object out = tool.handler().run(caller, grant, args);
            JsonNode value = out == null ? json.createObjectNode() : json.valueToTree(out);
            record(caller, grant.orgId(), grant.projectId(), tool.name(), AuditOutcome.SUCCESS, start, origin, Map.of());
            return result(value, false);
        } catch (ApiProblem p) {
            return failed(caller, grant.orgId(), grant.projectId(), tool.name(), start, origin, p.code(), p.detail(),
                    AuditOutcome.ERROR);
        } catch (RuntimeException e) {
            LOG.error("platform tool {} failed", tool.name(), e);
            return failed(caller, grant.orgId(), grant.projectId(), tool.name(), start, origin, ProblemCode.INTERNAL,
                    "the tool failed; the platform's log has the details", AuditOutcome.ERROR);
        }
    }

    private ObjectNode connector(Identity caller, ToolCatalog.Entry entry, JsonNode args, Origin origin, long start) {
        GrantedTool tool = entry.granted();
        try {
            JsonNode result = connectors.call(tool, args);
            boolean isError = result.path("isError").asBoolean(false);
            record(caller, tool.orgId(), tool.projectId(), entry.name(), isError ? AuditOutcome.ERROR : AuditOutcome.SUCCESS, start, origin,
                    tool.callDetails());
            return (ObjectNode) result;
        } catch (ToolCallFailure e) {
            Map<String, Object> more = new HashMap<>(tool.callDetails());
            more.put("error", e.getMessage());
            boolean cancelled = e.kind() == ToolCallFailure.Kind.HALTED;
            record(caller, tool.orgId(), tool.projectId(), entry.name(), cancelled ? AuditOutcome.CANCELLED : AuditOutcome.ERROR, start,
                    origin, more);
            ProblemCode code = switch (e.kind()) {
                case HALTED -> ProblemCode.HALTED;
                case INVALID_ARGUMENTS -> ProblemCode.VALIDATION_FAILED;
                case UPSTREAM_FAILED -> ProblemCode.UPSTREAM_FAILED;
            };
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
        String given = args.path(scope.variable()).asText(null);
        if (given == null && !(scope == Scope.PROJECT && endpoint != null)) {
            throw ApiProblem.invalid("/" + scope.variable(), "required", "`" + scope.variable() + "` is required");
        }
        if (given != null) {
            vars.put(scope.variable(), given);
        }
        return vars;
    }

    private ObjectNode failed(Identity caller, UUID orgId, UUID projectId, String name, long start, Origin origin,
                              ProblemCode code, String detail, AuditOutcome outcome) {
        record(caller, orgId, projectId, name, outcome, start, origin, Map.of("code", code.code()));
        return result(problem(code, detail), true);
    }

    private JsonNode problem(ProblemCode code, String detail) {
        return json.valueToTree(problems.body(code, detail, List.of()));
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

    private void record(Identity caller, UUID orgId, UUID projectId, String tool, AuditOutcome outcome, long start,
                        Origin origin, Map<String, Object> extra) {
        Map<String, Object> details = new LinkedHashMap<>(extra);
        details.put("tool", tool);
        details.put("via", origin.via());
        details.put("durationMs", (System.nanoTime() - start) / 1_000_000);
        if (origin.forwardedFor() != null) {
            details.put("originalCaller", origin.forwardedFor());
        }
        try {
            audit.append(AuditEvent.of(AuditKind.TOOL_CALL, "call").org(orgId).project(projectId).outcome(outcome)
                    .by(caller).target(tool).details(details).build()).join();
        } catch (RuntimeException e) {
            LOG.error("the audit entry of tool call {} was not stored", tool, e);
            throw new ApiProblem(ProblemCode.INTERNAL, "the call could not be audited");
        }
    }
}
