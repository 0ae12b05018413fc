package dev.stockade.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Scope;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.GrantedTool;
import dev.stockade.api.kernel.tools.GrantedToolSource;
import dev.stockade.api.kernel.tools.PlatformTool;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The tools one caller sees at one endpoint, built per caller: the platform tools of the families its identity may
 * see ({@link ToolFamily}) and the tools its policies grant ({@link GrantedToolSource}). A project endpoint
 * offers only the platform tools that act within a project. This list is the authority: a name not in it is unknown
 * to that caller, whatever other callers see.
 */
@Singleton
public class ToolCatalog {
    /** One listed tool: a platform tool or a granted connector tool. */
    public record Entry(String name, String description, JsonNode inputSchema, @Nullable PlatformTool platform,
                        @Nullable GrantedTool granted) {
    }

    private final ObjectMapper json;
    private final Map<String, PlatformTool> platform = new LinkedHashMap<>();
    private final Cache<String, Listing> listings = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).build();
    private final GrantedToolSource granted;
    private final Authorizer authorizer;

    public ToolCatalog(List<PlatformTool.Provider> providers, GrantedToolSource granted, Authorizer authorizer, ObjectMapper json) {
        this.json = json;
        providers.stream().flatMap(p -> p.tools().stream()).sorted(Comparator.comparing(PlatformTool::name))
                .forEach(t -> {
                    if (platform.put(t.name(), t) != null) {
                        throw new IllegalStateException("two platform tools are named " + t.name());
                    }
                });
        this.granted = granted;
        this.authorizer = authorizer;
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
        ObjectNode result = json.createObjectNode();
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
        Set<ToolFamily> families = authorizer.toolFamilies(caller, projectId);
        for (PlatformTool t : platform.values()) {
            if (families.contains(t.family()) && (projectId == null || inProject(t))) {
                out.add(new Entry(t.name(), t.description(), t.inputSchema(), t, null));
            }
        }
        for (GrantedTool g : granted.of(caller, projectId)) {
            out.add(new Entry(g.name(), g.description(), g.inputSchema(), null, g));
        }
        return out;
    }

    /** The tool named {@code name} in the caller's list, or null. */
    @Nullable
    public Entry find(Identity caller, @Nullable UUID projectId, String name) {
        return listing(caller, projectId).byName().get(name);
    }

    private static boolean inProject(PlatformTool t) {
        return t.family() == ToolFamily.SELF || t.action().scope() == Scope.PROJECT
                || t.action().scope() == Scope.CONNECTOR;
    }

}
