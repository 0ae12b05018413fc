package dev.stockade.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import dev.stockade.api.connectors.GrantedTools;
import dev.stockade.api.db.Sql;
import dev.stockade.api.identity.Identity;
import dev.stockade.api.web.Scope;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The tools one caller sees at one endpoint, built per caller: the platform tools of the families its identity may
 * see ({@link ToolFamily}) and the connector tools its policies grant ({@link GrantedTools}). A project endpoint
 * offers only the platform tools that act within a project. This list is the authority: a name not in it is unknown
 * to that caller, whatever other callers see.
 */
@Singleton
public class ToolCatalog {
    /** One listed tool: a platform tool or a granted connector tool. */
    public record Entry(String name, String description, JsonNode inputSchema, @Nullable PlatformTool platform,
                        @Nullable GrantedTools.Exposed connector) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, PlatformTool> platform = new LinkedHashMap<>();
    private final Cache<String, Listing> listings = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).build();
    private final GrantedTools granted;
    private final Sql jdbc;

    public ToolCatalog(List<PlatformTool.Provider> providers, GrantedTools granted, Sql jdbc) {
        providers.stream().flatMap(p -> p.tools().stream()).sorted(Comparator.comparing(PlatformTool::name))
                .forEach(t -> {
                    if (platform.put(t.name(), t) != null) {
                        throw new IllegalStateException("two platform tools are named " + t.name());
                    }
                });
        this.granted = granted;
        this.jdbc = jdbc;
    }

    /** Every platform tool, whoever may see it (documentation and tests). */
    public List<PlatformTool> platformTools() {
        return List.copyOf(platform.values());
    }

    /** One caller's list at one endpoint, with its lookup by name and its {@code tools/list} result. */
    public record Listing(List<Entry> entries, Map<String, Entry> byName, ObjectNode result, byte[] resultJson) {
    }

    /**
     * The caller's listing, cached under the grants' generation (a change that can alter any list moves it on, so a
     * listing computed across a change is never served after it).
     */
    public Listing listing(Identity caller, @Nullable UUID projectId) {
        return listings.get(granted.generation() + "|" + caller.type() + ":" + caller.actorId() + "|" + projectId,
                k -> build(compute(caller, projectId)));
    }

    public List<Entry> list(Identity caller, @Nullable UUID projectId) {
        return listing(caller, projectId).entries();
    }

    private Listing build(List<Entry> entries) {
        Map<String, Entry> byName = new LinkedHashMap<>();
        ObjectNode result = JSON.createObjectNode();
        var tools = result.putArray("tools");
        for (Entry e : entries) {
            byName.put(e.name(), e);
            ObjectNode t = tools.addObject().put("name", e.name()).put("description", e.description());
            t.set("inputSchema", e.inputSchema());
        }
        return new Listing(List.copyOf(entries), byName, result,
                result.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private List<Entry> compute(Identity caller, @Nullable UUID projectId) {
        List<Entry> out = new ArrayList<>();
        boolean projectAdmin = caller instanceof Identity.ApiToken a && tokenIsProjectAdmin(a.tokenId(), projectId);
        for (PlatformTool t : platform.values()) {
            if (visible(caller, t.family(), projectAdmin) && (projectId == null || inProject(t))) {
                out.add(new Entry(t.name(), t.description(), t.inputSchema(), t, null));
            }
        }
        for (GrantedTools.Exposed e : granted.of(caller, projectId)) {
            String description = e.tool().description().isEmpty() ? e.tool().name() : e.tool().description();
            out.add(new Entry(e.name(), "[" + e.connector().name() + "] " + description, e.tool().inputSchema(), null,
                    e));
        }
        return out;
    }

    /** The tool named {@code name} in the caller's list, or null. */
    @Nullable
    public Entry find(Identity caller, @Nullable UUID projectId, String name) {
        return listing(caller, projectId).byName().get(name);
    }

    static boolean visible(Identity caller, ToolFamily family, boolean projectAdmin) {
        if (caller instanceof Identity.User || caller instanceof Identity.Owner) {
            return family != ToolFamily.SELF;
        }
        if (caller instanceof Identity.ApiToken) {
            return family == ToolFamily.DAY_TO_DAY || family == ToolFamily.SANDBOX_ADMIN && projectAdmin;
        }
        if (caller instanceof Identity.SandboxToken) {
            return family == ToolFamily.SELF;
        }
        return false;
    }

    private static boolean inProject(PlatformTool t) {
        return t.family() == ToolFamily.SELF || t.action().scope() == Scope.PROJECT
                || t.action().scope() == Scope.CONNECTOR;
    }

    /** Whether the token is an admin of the project ({@code null}: of any project). */
    private boolean tokenIsProjectAdmin(UUID tokenId, @Nullable UUID projectId) {
        return jdbc.prepare("SELECT 1 FROM project_members WHERE principal_type = 'api-token' AND principal_id = ?"
                + " AND role = 'ADMIN' AND (?::uuid IS NULL OR project_id = ?::uuid) LIMIT 1", ps -> {
                    ps.setObject(1, tokenId, Types.OTHER);
                    ps.setObject(2, projectId, Types.OTHER);
                    ps.setObject(3, projectId, Types.OTHER);
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next();
                    }
                });
    }
}
