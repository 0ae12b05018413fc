package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.net.UrlHosts;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Connectors of a project: registration (with a first discovery), re-discovery into pending specs, promotion, and
 * the checks a project admin runs before registering. Discovery happens outside any transaction (it dials the
 * upstream); each write that follows is one transaction with its audit entry and a {@code connector} event, which
 * tells every replica's MCP sessions that tool lists may have changed.
 */
@Singleton
public class ConnectorService {
    /** Connector names prefix the tools they expose, so they are short slugs. */
    static final Pattern NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?");
    /** The largest OpenAPI document given inline. */
    static final int MAX_DOCUMENT = 2_000_000;

    private final ConnectorStore store;
    private final UpstreamClient upstream;
    private final AuditLog audit;
    private final Events events;
    private final TransactionOperations<Connection> tx;
    private final GuardedHttp documents;
    private final ConnectorSettings upstreamSettings;
    private final Clock clock;

    public ConnectorService(ConnectorStore store, UpstreamClient upstream, AuditLog audit, Events events,
                            TransactionOperations<Connection> tx, GuardedHttp documents, ConnectorSettings settings,
                            Clock clock) {
        this.clock = clock;
        this.documents = documents;
        this.upstreamSettings = settings;
        this.store = store;
        this.upstream = upstream;
        this.audit = audit;
        this.events = events;
        this.tx = tx;
    }

    /** What a discovery found: the tools, or why it failed. */
    public record Discovery(List<UpstreamClient.Tool> tools, String error, String server) {
        Discovery(List<UpstreamClient.Tool> tools, String error) {
            this(tools, error, null);
        }

        boolean ok() {
            return error == null;
        }
    }

    /** Dials {@code url} and lists its tools; never throws for what the upstream did. */
    public Discovery discover(URI url) {
        try {
            return new Discovery(upstream.discover(url, Map.of()), null);
        } catch (UpstreamClient.UpstreamException e) {
            return new Discovery(List.of(), e.getMessage());
        }
    }

    /**
     * Reads an OpenAPI document, fetched from {@code documentUrl} (through the dial guard) or given inline, into
     * tools; a fetch that fails is a failed discovery, an inline document that does not read is the caller's 400.
     */
    public Discovery discoverHttp(String documentUrl, String document) {
        String text = document;
        if (documentUrl != null) {
            try {
                text = documents.fetch(url(documentUrl));
            } catch (UpstreamClient.UpstreamException e) {
                return new Discovery(List.of(), "the document could not be read: " + e.getMessage());
            }
        }
        try {
            OpenApiTools.Read read = OpenApiTools.read(text, upstreamSettings.maxTools());
            return new Discovery(read.tools(), null, read.server());
        } catch (UpstreamClient.UpstreamException e) {
            if (documentUrl != null) {
                return new Discovery(List.of(), e.getMessage());
            }
            throw ApiProblem.invalid("/document", "openapi", e.getMessage());
        }
    }

    /** Registers an MCP connector and runs its first discovery; a failed discovery is recorded, not refused. */
    public Connector register(Identity caller, Grant grant, String name, String url) {
        checkName(name);
        URI target = url(url);
        Discovery found = discover(target); // outside the transaction: it dials the upstream
        return tx.executeWrite(status -> register(caller, grant, name, "mcp", target, null, found));
    }

    /**
     * Registers an HTTP API from its OpenAPI document ({@code document} inline or {@code documentUrl}, exactly one);
     * the API's base is {@code baseUrl}, or the document's first server.
     */
    public Connector registerHttp(Identity caller, Grant grant, String name, String baseUrl, String document,
                                  String documentUrl) {
        checkName(name);
        if ((document == null) == (documentUrl == null)) {
            throw ApiProblem.invalid("/document", "required", "give the OpenAPI document inline (`document`) or where"
                    + " to read it (`documentUrl`), not both");
        }
        if (document != null && document.length() > MAX_DOCUMENT) {
            throw ApiProblem.invalid("/document", "size", "`document` is at most " + MAX_DOCUMENT + " characters");
        }
        Discovery found = discoverHttp(documentUrl, document);
        String base = baseUrl != null ? baseUrl : found.server();
        if (base == null && found.ok()) {
            throw ApiProblem.invalid("/baseUrl", "required", "the document names no server: give `baseUrl`");
        }
        URI target = base == null ? url(documentUrl) : documentUrl != null && !base.contains("://")
                ? url(documentUrl).resolve(base) : url(base);
        return tx.executeWrite(status -> register(caller, grant, name, "http", url(target.toString()), documentUrl,
                found));
    }

    private static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiProblem.invalid("/name", "pattern", "`name` must be 1 to 32 lowercase letters, digits or"
                    + " hyphens, starting and ending with a letter or digit (it prefixes the connector's tool names)");
        }
    }

    private Connector register(Identity caller, Grant grant, String name, String kind, URI url, String documentUrl,
                               Discovery found) {
        if (store.ofProject(grant.projectId()).stream().anyMatch(c -> c.name().equals(name))) {
            throw new ApiProblem(ProblemCode.CONFLICT, "the project already has a connector named `" + name + "`");
        }
        UUID id = UUID.randomUUID();
        Instant now = clock.instant();
        store.insert(new Connector(id, grant.orgId(), grant.projectId(), name, kind, url.toString(), documentUrl,
                found.ok() ? "ready" : "error", found.error(), caller.type() + ":" + caller.actorId(), now,
                found.ok() ? now : null, null, List.of()));
        if (found.ok()) {
            store.insertSpec(UUID.randomUUID(), id, "active", Connector.json(found.tools()), digest(found.tools()));
        }
        audit.record(AuditEvent.of(AuditKind.CONNECTOR, "create").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(id.toString())
                .details(Map.of("name", name, "url", url.toString(), "tools", found.tools().size())).build());
        changed(grant.orgId(), id);
        return store.get(id);
    }

    public List<Connector> list(Grant grant) {
        return store.ofProject(grant.projectId());
    }

    public Connector get(UUID id) {
        return store.get(id);
    }

    @Transactional
    public void delete(Identity caller, Grant grant, UUID id) {
        Connector c = store.get(id);
        store.delete(id);
        audit.record(AuditEvent.of(AuditKind.CONNECTOR, "delete").by(caller).org(grant.orgId()).project(c.projectId())
                .target(id.toString()).details(Map.of("name", c.name())).build());
        changed(grant.orgId(), id);
    }

    /**
     * Re-discovers: a first successful discovery becomes the active spec; a tool list that differs from the active
     * one becomes the (single) pending spec, replacing an older pending one; an unchanged list changes nothing.
     */
    public ConnectorViews.SyncResult sync(Identity caller, Grant grant, UUID id, String document) {
        Connector c = store.get(id);
        if (c.kind().equals("http") && c.documentUrl() == null && document == null) {
            throw ApiProblem.invalid("/document", "required", "this connector's document was given inline: send the"
                    + " new one as `document`");
        }
        // outside the transaction: it dials the upstream
        Discovery found = c.kind().equals("http") ? discoverHttp(c.documentUrl(), c.documentUrl() == null ? document
                : null) : discover(url(c.url()));
        return tx.executeWrite(status -> applySync(caller, grant, c, found));
    }

    private ConnectorViews.SyncResult applySync(Identity caller, Grant grant, Connector c, Discovery found) {
        store.markSynced(c.id(), found.ok() ? "ready" : "error", found.error());
        if (!found.ok()) {
            return new ConnectorViews.SyncResult("error", found.error(), null, null, null);
        }
        String digest = digest(found.tools());
        // the digest stored with the active spec (jsonb reorders keys, so a digest of the stored JSON would differ)
        boolean same = store.specs(c.id(), "active").stream().anyMatch(s -> s.digest().equals(digest));
        UUID activeSpec = null;
        UUID pendingSpec = null;
        if (c.activeSpecId() == null) {
            activeSpec = UUID.randomUUID();
            store.insertSpec(activeSpec, c.id(), "active", Connector.json(found.tools()), digest);
        } else if (!same) {
            boolean alreadyPending = store.specs(c.id(), "pending").stream().anyMatch(s -> s.digest().equals(digest));
            if (!alreadyPending) {
                store.moveSpecs(c.id(), "pending", "superseded");
                UUID spec = UUID.randomUUID();
                store.insertSpec(spec, c.id(), "pending", Connector.json(found.tools()), digest);
            }
            pendingSpec = store.specs(c.id(), "pending").get(0).id();
        }
        audit.record(AuditEvent.of(AuditKind.CONNECTOR, "sync").by(caller).org(grant.orgId()).project(c.projectId())
                .target(c.id().toString()).details(Map.of("changed", !same, "tools", found.tools().size())).build());
        changed(grant.orgId(), c.id());
        return new ConnectorViews.SyncResult("ready", null, !same, activeSpec, pendingSpec);
    }

    public List<ConnectorStore.Spec> pending(UUID id) {
        return store.specs(store.get(id).id(), "pending");
    }

    public ConnectorStore.Spec spec(UUID id, UUID specId) {
        return store.spec(id, specId);
    }

    /** What promoting the spec would change: tools added, removed, and changed (description or schema). */
    public ConnectorViews.SpecDiff diff(UUID id, UUID specId) {
        Connector c = store.get(id);
        ConnectorStore.Spec spec = store.spec(id, specId);
        Map<String, JsonNode> before = byName(Connector.json(c.tools()));
        Map<String, JsonNode> after = byName(spec.tools());
        return new ConnectorViews.SpecDiff(specId, c.activeSpecId(),
                after.keySet().stream().filter(n -> !before.containsKey(n)).sorted().toList(),
                before.keySet().stream().filter(n -> !after.containsKey(n)).sorted().toList(),
                after.keySet().stream().filter(n -> before.containsKey(n) && !before.get(n).equals(after.get(n)))
                        .sorted().toList());
    }

    /** Makes a pending spec active; tools it adds are still granted only where a policy names them. */
    @Transactional
    public Connector promote(Identity caller, Grant grant, UUID id, UUID specId) {
        ConnectorStore.Spec spec = store.spec(id, specId);
        if (!spec.status().equals("pending")) {
            throw new ApiProblem(ProblemCode.CONFLICT, "spec `" + specId + "` is " + spec.status()
                    + "; only a pending spec can be promoted");
        }
        store.moveSpecs(id, "active", "superseded");
        store.setSpecStatus(specId, "active");
        audit.record(AuditEvent.of(AuditKind.CONNECTOR, "promote").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(id.toString()).details(Map.of("specId", specId.toString()))
                .build());
        changed(grant.orgId(), id);
        return store.get(id);
    }

    /** The tool entries of the active spec with their visibility (a hidden entry is never exposed, granted or not). */
    public List<ConnectorViews.Entry> entries(UUID id) {
        Connector c = store.get(id);
        java.util.Set<String> hidden = store.hidden(List.of(id)).getOrDefault(id, java.util.Set.of());
        return c.tools().stream().map(t -> new ConnectorViews.Entry(t.name(), t.description(),
                !hidden.contains(t.name()))).toList();
    }

    @Transactional
    public ConnectorViews.EntryVisibility setVisibility(Identity caller, Grant grant, UUID id, String entry, boolean visible) {
        Connector c = store.get(id);
        if (c.tool(entry) == null) {
            throw ApiProblem.notFound("entry `" + UpstreamClient.clip(entry) + "` (of this connector)");
        }
        store.setVisibility(id, entry, visible, caller.type() + ":" + caller.actorId());
        audit.record(AuditEvent.of(AuditKind.CONNECTOR, "visibility").by(caller).org(grant.orgId())
                .project(c.projectId()).target(id.toString()).details(Map.of("entry", entry, "visible", visible))
                .build());
        changed(grant.orgId(), id);
        return new ConnectorViews.EntryVisibility(entry, visible);
    }

    private void changed(UUID orgId, UUID connectorId) {
        events.publish(Topic.CONNECTOR, orgId, Map.of("connectorId", connectorId.toString()));
    }

    private static Map<String, JsonNode> byName(JsonNode tools) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        tools.forEach(t -> out.put(t.path("name").asText(), t));
        return out;
    }

    /**
     * An absolute http(s) URL without user info or fragment; a host in a short IPv4 form ({@code 127.1}) is written
     * as its dotted quad, for the dial guard to judge as the address it is.
     */
    public static URI url(String text) {
        URI u;
        try {
            u = text == null ? null : UrlHosts.readable(new URI(text.strip()));
        } catch (URISyntaxException e) {
            u = null;
        }
        if (u == null || u.getHost() == null || u.getRawUserInfo() != null || u.getRawFragment() != null
                || !("https".equals(u.getScheme()) || "http".equals(u.getScheme()))) {
            throw ApiProblem.invalid("/url", "format", "`url` must be an absolute http or https URL with a host and"
                    + " without user info or a fragment");
        }
        return u;
    }

    static String digest(List<UpstreamClient.Tool> tools) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(Connector.json(tools.stream()
                    .sorted(java.util.Comparator.comparing(UpstreamClient.Tool::name)).toList()).toString()
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
