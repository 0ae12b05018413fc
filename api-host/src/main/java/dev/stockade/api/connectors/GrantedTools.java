package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.halt.HaltService;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.GrantedTool;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.sandbox.SandboxPolicies;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.policy.model.ConnectorGrant;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector tools a caller may see and call: for every project the caller reaches (or the one an endpoint names),
 * the connector grants of its effective policy (a person's or API token's bindings under the org ceiling, a sandbox's
 * own policies), each limited to the tools named in {@code allowedTools} that the connector's active spec offers.
 * Tools added upstream are not granted until a policy names them; an empty {@code allowedTools} grants nothing; a
 * halted organization's connectors are not listed. Lists are computed from stored grants, never from upstream
 * calls, and cached per caller and endpoint until a governance, connector, membership, halt or sandbox change.
 */
@Singleton
public class GrantedTools {
    private static final Logger LOG = LoggerFactory.getLogger(GrantedTools.class);
    /** The topics whose events can change what a caller is granted. */
    public static final List<String> TOPICS = List.of("governance", "connector", "access", "halt", "enforcement");

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
    private final Effective effective;
    private final SandboxService sandboxes;
    private final SandboxPolicies policies;
    private final ConnectorStore connectors;
    private final HaltService halts;
    private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();
    private final Cache<String, List<Exposed>> cache = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).build();

    public GrantedTools(Sql jdbc, Effective effective, SandboxService sandboxes, SandboxPolicies policies,
                        ConnectorStore connectors, HaltService halts, EventStream events) {
        this.jdbc = jdbc;
        this.effective = effective;
        this.sandboxes = sandboxes;
        this.policies = policies;
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
        Map<UUID, Map<UUID, Set<String>>> byOrg = new LinkedHashMap<>(); // org -> connector -> allowed tools
        Map<UUID, UUID> credentials = new HashMap<>(); // connector -> the connector credential its grant names
        Set<UUID> halted = halts.haltedOrgs();
        for (Reach r : reach(caller, projectId)) {
            if (halted.contains(r.orgId())) {
                continue;
            }
            for (ConnectorGrant g : grants(caller, r)) {
                UUID id;
                try {
                    id = UUID.fromString(g.connectorId());
                } catch (IllegalArgumentException e) {
                    continue; // the core validated it as a UUID; nothing else can name a connector
                }
                byOrg.computeIfAbsent(r.orgId(), o -> new LinkedHashMap<>())
                        .computeIfAbsent(id, c -> new LinkedHashSet<>()).addAll(g.allowedTools());
                if (g.credentialId() != null) {
                    credentials.putIfAbsent(id, UUID.fromString(g.credentialId()));
                }
            }
        }
        List<Exposed> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        byOrg.forEach((org, grants) -> {
            Map<UUID, Set<String>> hidden = connectors.hidden(grants.keySet());
            for (Connector c : connectors.ofOrg(org, grants.keySet())) {
                for (String name : grants.get(c.id())) {
                    UpstreamClient.Tool tool = c.tool(name);
                    if (tool != null && !hidden.getOrDefault(c.id(), Set.of()).contains(name)) {
                        String exposed = ToolNames.exposed(c.id(), c.name(), tool.name(), taken);
                        taken.add(exposed);
                        out.add(new Exposed(exposed, c, tool, credentials.get(c.id())));
                    }
                }
            }
        });
        return List.copyOf(out);
    }

    private List<ConnectorGrant> grants(Identity caller, Reach r) {
        try {
            if (caller instanceof Identity.SandboxToken s) {
                return sandboxes.byToken(s.tokenId()).map(sb -> policies.resolve(sb).connectorGrants())
                        .orElse(List.of());
            }
            String type = caller instanceof Identity.User ? "user" : "api-token";
            UUID subject = caller instanceof Identity.User u ? u.userId() : ((Identity.ApiToken) caller).tokenId();
            return effective.resolve(new Effective.Documents(effective.ceiling(r.orgId()),
                    effective.grantsFor(r.orgId(), r.projectId(), type, subject))).connectorGrants();
        } catch (ApiProblem e) {
            LOG.warn("connector grants of {} in project {} not resolved: {}", caller.type(), r.projectId(), e.detail());
            return List.of();
        }
    }

    /** The projects whose grants count: the endpoint's project, or every project the caller is a member of. */
    private List<Reach> reach(Identity caller, @Nullable UUID projectId) {
        String sql;
        Object principal;
        if (caller instanceof Identity.User u) {
            principal = u.userId();
            sql = "SELECT p.id, p.org_id FROM projects p WHERE (p.org_id IN (SELECT org_id FROM org_members WHERE"
                    + " user_id = ?1) OR p.id IN (SELECT project_id FROM project_members WHERE principal_type = 'user'"
                    + " AND principal_id = ?1))";
        } else if (caller instanceof Identity.ApiToken a) {
            principal = a.tokenId();
            sql = "SELECT p.id, p.org_id FROM projects p JOIN project_members m ON m.project_id = p.id"
                    + " WHERE m.principal_type = 'api-token' AND m.principal_id = ?1";
        } else if (caller instanceof Identity.SandboxToken s) {
            principal = s.projectId();
            sql = "SELECT p.id, p.org_id FROM projects p WHERE p.id = ?1";
        } else {
            return List.of(); // the installation owner and machine identities hold no bindings
        }
        String filtered = sql.replace("?1", "?") + (projectId == null ? "" : " AND p.id = ?") + " ORDER BY p.created_at, p.id";
        int uses = sql.split("\\?1", -1).length - 1;
        return jdbc.prepare(filtered, ps -> {
            for (int i = 1; i <= uses; i++) {
                ps.setObject(i, principal, Types.OTHER);
            }
            if (projectId != null) {
                ps.setObject(uses + 1, projectId, Types.OTHER);
            }
            List<Reach> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Reach(rs.getObject(2, UUID.class), rs.getObject(1, UUID.class)));
                }
            }
            return out;
        });
    }
}
