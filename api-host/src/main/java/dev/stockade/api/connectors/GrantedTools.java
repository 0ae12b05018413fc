package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.halt.HaltService;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.GrantedTool;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.sandbox.CallerPolicies;
import dev.stockade.policy.compiler.ConnectorReach.GrantedConnector;
import dev.stockade.policy.compiler.ConnectorReach;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.model.ConnectorGrant;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector tools a caller may see and call: for every project the caller reaches (or the one an endpoint names),
 * the connector grants of its effective policy (a person's or API token's bindings under the org ceiling, a sandbox's
 * own policies), merged across projects by the core ({@link ConnectorReach}), each limited to the tools named in
 * {@code allowedTools} that the connector's active spec offers.
 * Tools added upstream are not granted until a policy names them; an empty {@code allowedTools} grants nothing; a
 * halted organization's connectors are not listed. Lists are computed from stored grants, never from upstream
 * calls, and cached per caller and endpoint until a governance, connector, membership, halt or sandbox change.
 */
@Singleton
public class GrantedTools {
    private static final Logger LOG = LoggerFactory.getLogger(GrantedTools.class);
    /** The topics whose events can change what a caller is granted. */
    public static final List<Topic> TOPICS = List.of(Topic.GOVERNANCE, Topic.CONNECTOR, Topic.ACCESS, Topic.HALT,
            Topic.ENFORCEMENT);

    /** A connector tool as one caller sees it. */
    public record Exposed(String name, Connector connector, UpstreamClient.Tool tool, @Nullable UUID credentialId)
            implements GrantedTool {
        @Override
        public String description() {
            return "[" + connector.name() + "] " + (tool.description().isEmpty() ? tool.name() : tool.description());
        }

        @Override
        public JsonNode inputSchema() {
            return tool.inputSchema();
        }

        @Override
        public UUID orgId() {
            return connector.orgId();
        }

        @Override
        @Nullable
        public UUID projectId() {
            return connector.projectId();
        }

        @Override
        public Map<String, Object> callDetails() {
            return Map.of("connectorId", connector.id().toString(), "upstreamTool", tool.name());
        }
    }

    private record Reach(UUID orgId, UUID projectId) {
    }

    private final Sql jdbc;
    private final CallerPolicies callers;
    private final ConnectorStore connectors;
    private final HaltService halts;
    private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();
    private final Cache<String, List<Exposed>> cache = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).build();

    public GrantedTools(Sql jdbc, CallerPolicies callers, ConnectorStore connectors, HaltService halts,
                        EventStream events) {
        this.jdbc = jdbc;
        this.callers = callers;
        this.connectors = connectors;
        this.halts = halts;
        TOPICS.forEach(t -> events.subscribe(t, e -> invalidate()));
    }

    /** The tools {@code caller} may see at an endpoint: {@code projectId} null is the organization-wide one. */
    public List<Exposed> of(Identity caller, @Nullable UUID projectId) {
        // the generation is part of the key: a list computed while a change arrived is stored under a stale key
        String key = generation.get() + "|" + caller.type() + ":" + caller.actorId() + "|";
        if (projectId == null) {
            return cache.get(key + "null", k -> exposed(caller, null));
        }
        List<Exposed> everywhere = of(caller, null); // outside the mapping function: Caffeine forbids recursion
        return cache.get(key + projectId, k -> named(exposed(caller, projectId), everywhere));
    }

    /** The current generation: it changes with every change that can alter a grant. */
    public long generation() {
        return generation.get();
    }

    /** Forgets every computed list (the next read recomputes). */
    public void invalidate() {
        generation.incrementAndGet();
        cache.invalidateAll();
    }

    /** The tool named {@code name} in the caller's list, or null (unknown and not granted look the same). */
    @Nullable
    public Exposed find(Identity caller, @Nullable UUID projectId, String name) {
        return of(caller, projectId).stream().filter(e -> e.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * A project endpoint's tools carry the names the caller's organization-wide list gives them: names are picked
     * in one list (two connectors of the same name in two projects, sanitized names that meet), so a project's own
     * list could otherwise give a tool the name another tool has at {@code /mcp}, and its calls be audited under it.
     */
    private static List<Exposed> named(List<Exposed> here, List<Exposed> everywhere) {
        Map<String, String> names = new HashMap<>();
        for (Exposed e : everywhere) {
            names.put(e.connector().id() + "\0" + e.tool().name(), e.name());
        }
        return here.stream().map(e -> new Exposed(names.getOrDefault(e.connector().id() + "\0" + e.tool().name(),
                e.name()), e.connector(), e.tool(), e.credentialId())).toList();
    }

    private List<Exposed> exposed(Identity caller, @Nullable UUID projectId) {
        // which connectors and tools the projects grant is the core's rule; the host reads rows and names tools
        List<ConnectorReach.ProjectGrants> projects = reach(caller, projectId).stream()
                .map(r -> new ConnectorReach.ProjectGrants(r.orgId(), r.projectId(), grants(caller, r))).toList();
        Map<UUID, List<GrantedConnector>> byOrg = new LinkedHashMap<>();
        for (GrantedConnector g : ConnectorReach.across(projects, halts.haltedOrgs())) {
            byOrg.computeIfAbsent(g.orgId(), o -> new ArrayList<>()).add(g);
        }
        List<Exposed> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        byOrg.forEach((org, granted) -> {
            Map<UUID, GrantedConnector> byId = new LinkedHashMap<>();
            granted.forEach(g -> byId.put(g.connectorId(), g));
            Map<UUID, Set<String>> hidden = connectors.hidden(byId.keySet());
            for (Connector c : connectors.ofOrg(org, byId.keySet())) {
                GrantedConnector g = byId.get(c.id());
                for (String name : g.tools()) {
                    UpstreamClient.Tool tool = c.tool(name);
                    if (tool != null && !hidden.getOrDefault(c.id(), Set.of()).contains(name)) {
                        String exposed = ToolNames.exposed(c.id(), c.name(), tool.name(), taken);
                        taken.add(exposed);
                        out.add(new Exposed(exposed, c, tool, g.credentialId().orElse(null)));
                    }
                }
            }
        });
        return List.copyOf(out);
    }

    private List<ConnectorGrant> grants(Identity caller, Reach r) {
        try {
            return callers.resolve(caller, r.orgId(), r.projectId()).map(Resolution::connectorGrants)
                    .orElse(List.of());
        } catch (ApiProblem e) {
            LOG.warn("connector grants of {} in project {} not resolved: {}", caller.type(), r.projectId(), e.detail());
            return List.of();
        }
    }

    /**
     * The projects of {@code orgId} whose grants count for a person ({@code user}) or an API token ({@code api-token})
     * at an endpoint ({@code projectId} null: the organization-wide one), as {@link #of} counts them: policy impact
     * resolves the same projects with candidate documents in place of the stored ones. Empty for any other type.
     */
    public List<UUID> projectsOf(String callerType, UUID principal, UUID orgId, @Nullable UUID projectId) {
        return reach(callerType, principal, projectId).stream().filter(r -> r.orgId().equals(orgId))
                .map(Reach::projectId).toList();
    }

    private List<Reach> reach(Identity caller, @Nullable UUID projectId) {
        if (caller instanceof Identity.User u) {
            return reach("user", u.userId(), projectId);
        } else if (caller instanceof Identity.ApiToken a) {
            return reach("api-token", a.tokenId(), projectId);
        } else if (caller instanceof Identity.SandboxToken s) {
            return reach("sandbox-token", s.projectId(), projectId);
        }
        return List.of(); // the installation owner and machine identities hold no bindings
    }

    /**
     * The projects whose grants count: the endpoint's project, or every project the caller is a member of (a sandbox
     * token: the project it is pinned to, {@code principal}). Each query reads its two values by name from {@code who}
     * ({@code who.principal}, {@code who.project}, null for every project), so each is bound once, in order, whatever
     * the query's shape.
     */
    private List<Reach> reach(String callerType, UUID principal, @Nullable UUID projectId) {
        String projects = switch (callerType) {
            case "user" -> "SELECT p.id, p.org_id, p.created_at FROM projects p, who WHERE (p.org_id IN (SELECT org_id"
                    + " FROM org_members WHERE user_id = who.principal) OR p.id IN (SELECT project_id FROM"
                    + " project_members WHERE principal_type = 'user' AND principal_id = who.principal))";
            case "api-token" -> "SELECT p.id, p.org_id, p.created_at FROM projects p JOIN project_members m"
                    + " ON m.project_id = p.id, who WHERE m.principal_type = 'api-token'"
                    + " AND m.principal_id = who.principal";
            case "sandbox-token" -> "SELECT p.id, p.org_id, p.created_at FROM projects p, who"
                    + " WHERE p.id = who.principal";
            default -> null;
        };
        if (projects == null) {
            return List.of();
        }
        String sql = "WITH who AS (SELECT CAST(? AS uuid) AS principal, CAST(? AS uuid) AS project)"
                + " SELECT r.id, r.org_id FROM (" + projects + ") r, who"
                + " WHERE who.project IS NULL OR r.id = who.project ORDER BY r.created_at, r.id";
        return jdbc.query(sql, Arrays.asList(principal, projectId),
                rs -> new Reach(rs.getObject(2, UUID.class), rs.getObject(1, UUID.class)));
    }
}
