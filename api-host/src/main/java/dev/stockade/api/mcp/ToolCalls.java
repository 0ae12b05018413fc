package dev.stockade.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.access.AuditHomes;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.access.Scope;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.GrantedTool;
import dev.stockade.api.kernel.tools.GrantedToolSource;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.ToolCallFailure;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import jakarta.inject.Singleton;
import java.util.ArrayList;
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

    /** One call in flight: who, at which endpoint, which name, from where, since when. */
    private record Call(Identity caller, @Nullable UUID endpoint, String name, Origin origin, long start) {
    }

    private final ToolCatalog catalog;
    private final Authorizer authorizer;
    private final GrantedToolSource connectors;
    private final AuditAppender audit;
    private final AuditHomes homes;
    private final ObjectMapper json;
    private final Problems problems;

    public ToolCalls(ToolCatalog catalog, Authorizer authorizer, GrantedToolSource connectors, AuditAppender audit,
                     AuditHomes homes, ObjectMapper json, Problems problems) {
        this.catalog = catalog;
        this.authorizer = authorizer;
        this.connectors = connectors;
        this.audit = audit;
        this.homes = homes;
        this.json = json;
        this.problems = problems;
    }

    /** Calls {@code name} as {@code caller} sees it at the endpoint of {@code projectId} (null: organization-wide). */
    public ObjectNode call(Identity caller, @Nullable UUID projectId, String name, JsonNode arguments, Origin origin) {
        return call(caller, projectId, name, arguments, origin, false);
    }

    /**
     * As above; {@code connectorsOnly}: a platform tool's name is unknown (the REST connector tool-call routes).
     * Every path writes its audit entry before this returns or throws, so no answer leaves unrecorded.
     */
    public ObjectNode call(Identity caller, @Nullable UUID projectId, String name, JsonNode arguments, Origin origin,
                           boolean connectorsOnly) {
        Call c = new Call(caller, projectId, name, origin, System.nanoTime());
        JsonNode args = arguments == null || arguments.isNull() ? json.createObjectNode() : arguments;
        ToolCatalog.Entry entry = catalog.find(caller, projectId, name);
        if (entry == null || connectorsOnly && entry.granted() == null) {
            record(c, homes.of(caller, projectId, null, args), projectId, AuditOutcome.DENIED,
                    Map.of("reason", "unknown-tool"));
            throw new UnknownTool(name);
        }
        if (!args.isObject()) {
            List<UUID> orgs = entry.granted() != null ? List.of(entry.granted().orgId())
                    : homes.of(caller, projectId, entry.platform().action(), args);
            return failed(c, orgs, projectId, new ApiProblem(ProblemCode.VALIDATION_FAILED,
                    "`arguments` must be an object"));
        }
        return entry.platform() != null ? platform(c, entry.platform(), args) : connector(c, entry, args);
    }

    private ObjectNode platform(Call c, PlatformTool tool, JsonNode args) {
        Grant grant;
        try {
            grant = authorizer.authorizeAt(c.caller(), tool.action(), scopeVariables(tool, args, c.endpoint()),
                    c.endpoint());
        } catch (ApiProblem p) {
            List<UUID> orgs = homes.of(c.caller(), c.endpoint(), tool.action(), args);
            return failed(c, orgs, homes.project(c.endpoint(), tool.action(), args, orgs), p);
        }
        // an action that names no organization (list_orgs, create_org, the self tools) is homed like a refusal
        List<UUID> orgs = grant.orgId() != null ? List.of(grant.orgId())
                : homes.of(c.caller(), c.endpoint(), tool.action(), args);
        UUID project = grant.projectId() != null ? grant.projectId() : c.endpoint();
        try {
            Object out = tool.handler().run(c.caller(), grant, args);
            JsonNode value = out == null ? json.createObjectNode() : json.valueToTree(out);
            record(c, orgs, project, AuditOutcome.SUCCESS, Map.of());
            return result(value, false);
        } catch (ApiProblem p) {
            return failed(c, orgs, project, p);
        } catch (RuntimeException e) {
            LOG.error("platform tool {} failed", tool.name(), e);
            return failed(c, orgs, project, new ApiProblem(ProblemCode.INTERNAL,
                    "the tool failed; the platform's log has the details"));
        }
    }

    private ObjectNode connector(Call c, ToolCatalog.Entry entry, JsonNode args) {
        GrantedTool tool = entry.granted();
        List<UUID> orgs = List.of(tool.orgId());
        try {
            JsonNode result = connectors.call(tool, args);
            boolean isError = result.path("isError").asBoolean(false);
            record(c, orgs, tool.projectId(), isError ? AuditOutcome.ERROR : AuditOutcome.SUCCESS, tool.callDetails());
            return (ObjectNode) result;
        } catch (ToolCallFailure e) {
            Map<String, Object> more = new HashMap<>(tool.callDetails());
            more.put("error", e.getMessage());
            boolean cancelled = e.kind() == ToolCallFailure.Kind.HALTED;
            record(c, orgs, tool.projectId(), cancelled ? AuditOutcome.CANCELLED : AuditOutcome.ERROR, more);
            ProblemCode code = switch (e.kind()) {
                case HALTED -> ProblemCode.HALTED;
                case INVALID_ARGUMENTS -> ProblemCode.VALIDATION_FAILED;
                case UPSTREAM_FAILED -> ProblemCode.UPSTREAM_FAILED;
            };
            return result(problem(code, e.getMessage(), List.of()), true);
        }
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

    /**
     * A tool error recorded as {@code denied} when it is a refusal (401, 403, 404: authorization, tenancy, a halt, an
     * id the caller may not know), else as {@code error}.
     */
    private ObjectNode failed(Call c, List<UUID> orgs, @Nullable UUID projectId, ApiProblem p) {
        int status = p.code().status().getCode();
        AuditOutcome outcome = status == 401 || status == 403 || status == 404 ? AuditOutcome.DENIED
                : AuditOutcome.ERROR;
        record(c, orgs, projectId, outcome, Map.of("code", p.code().code()));
        return result(problem(p.code(), p.detail(), p.errors()), true);
    }

    private JsonNode problem(ProblemCode code, String detail, List<FieldError> errors) {
        return json.valueToTree(problems.body(code, detail, errors));
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

    /** One entry per organization in {@code orgs} (a null element: installation-wide), all committed first. */
    private void record(Call c, List<UUID> orgs, @Nullable UUID projectId, AuditOutcome outcome,
                        Map<String, Object> extra) {
        Map<String, Object> details = new LinkedHashMap<>(extra);
        details.put("tool", c.name());
        details.put("via", c.origin().via());
        details.put("durationMs", (System.nanoTime() - c.start()) / 1_000_000);
        if (c.origin().forwardedFor() != null) {
            details.put("originalCaller", c.origin().forwardedFor());
        }
        List<AuditEvent> entries = new ArrayList<>();
        for (UUID org : orgs) {
            entries.add(AuditEvent.of(AuditKind.TOOL_CALL, "call").org(org).project(projectId).outcome(outcome)
                    .by(c.caller()).target(c.name()).details(details).build());
        }
        try {
            audit.commitAll(entries); // committed before the answer leaves; on this thread when no other call commits
        } catch (RuntimeException e) {
            LOG.error("the audit entry of tool call {} was not stored", c.name(), e);
            throw new ApiProblem(ProblemCode.INTERNAL, "the call could not be audited");
        }
    }
}
