package dev.stockade.api.enforcement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.SetPart;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The {@code sandbox_enforcement} table and its documents: the sandbox feature publishes what a sandbox's proxy must
 * enforce on its own transaction; the proxy feed reads the changes after a version. A set lists its documents by
 * content hash and each distinct document is stored once ({@code enforcement_documents}). Each write takes the next
 * version and publishes an {@code enforcement} event, so listeners on every replica wake after commit.
 */
@Singleton
public class EnforcementStore {
    /** One row with its documents, as readers outside the feed use it; {@code enforcement} is null for a tombstone. */
    public record Change(long version, UUID sandboxId, UUID orgId, boolean deleted, SandboxEnforcement enforcement) {
    }

    /**
     * One row as the feed reads it: a sandbox's set by document hashes and shared lists ({@code set} null for a
     * tombstone), or a shared list's documents ({@code shared} set, {@code sandboxId} and {@code set} null).
     */
    public record ListedChange(long version, UUID sandboxId, UUID orgId, boolean deleted, ListedSet set,
                               SharedList shared) {
        public ListedChange(long version, UUID sandboxId, UUID orgId, boolean deleted, ListedSet set) {
            this(version, sandboxId, orgId, deleted, set, null);
        }
    }

    /** A shared list's documents now, by hash. */
    public record SharedList(String name, UUID orgId, List<DocumentHash> documents) {
        public SharedList {
            documents = List.copyOf(documents);
        }
    }

    /** A shared list to publish: its name, organization and documents. */
    public record SharedDocuments(String name, UUID orgId, List<JsonNode> documents) {
        public SharedDocuments {
            documents = List.copyOf(documents);
        }
    }

    /**
     * A sandbox's set with its documents named by hash or by shared list.
     *
     * @param grants  the policy documents (attachment order, the embedded policy last)
     * @param ceiling the org ceiling's documents
     */
    public record ListedSet(UUID projectId, byte[] tokenHash, int revision, List<SetPart> grants,
                            List<SetPart> ceiling, List<UUID> credentials) {
        public ListedSet {
            grants = List.copyOf(grants);
            ceiling = List.copyOf(ceiling);
            credentials = List.copyOf(credentials);
        }
    }

    /** The advisory lock key of enforcement writes ("stk-enfo" in ASCII). */
    private static final long WRITE_LOCK = 0x73746b2d656e666fL;

    /** The columns {@link #listed} reads. */
    private static final String CHANGES = "SELECT version, sandbox_id, org_id, project_id, token_hash, revision,"
            + " bundle::text, deleted, NULL::text AS shared FROM sandbox_enforcement";

    /** Sets and shared lists after a version, in one order (each side bounded by the limit before they merge). */
    private static final String CHANGES_AFTER = "(" + CHANGES + " WHERE version > ? ORDER BY version LIMIT ?)"
            + " UNION ALL (SELECT version, NULL::uuid, org_id, NULL::uuid, NULL::bytea, 0, documents::text, false,"
            + " name FROM enforcement_shared WHERE version > ? ORDER BY version LIMIT ?) ORDER BY 1 LIMIT ?";

    /** The sets of a batch as arrays, one row each, in order; a row equal to the stored one is left alone. */
    private static final String UPSERT = "INSERT INTO sandbox_enforcement (sandbox_id, org_id, project_id,"
            + " token_hash, revision, bundle, own_sha256, own_known, version, deleted, updated_at)"
            + " SELECT u.sandbox_id, u.org_id, u.project_id, decode(u.token_hash, 'hex'), u.revision,"
            + " u.bundle::jsonb, u.own_sha256, u.own_known, nextval('enforcement_version'), false, now()"
            + " FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::int[], ?::text[], ?::text[],"
            + " ?::boolean[]) WITH ORDINALITY AS u(sandbox_id, org_id, project_id, token_hash, revision, bundle,"
            + " own_sha256, own_known, n) ORDER BY u.n"
            + " ON CONFLICT (sandbox_id) DO UPDATE SET"
            + " token_hash = EXCLUDED.token_hash, revision = EXCLUDED.revision, bundle = EXCLUDED.bundle,"
            + " own_sha256 = EXCLUDED.own_sha256, own_known = EXCLUDED.own_known, version = EXCLUDED.version,"
            + " deleted = false, updated_at = now() WHERE sandbox_enforcement.deleted"
            + " OR sandbox_enforcement.bundle IS DISTINCT FROM EXCLUDED.bundle"
            + " OR sandbox_enforcement.token_hash IS DISTINCT FROM EXCLUDED.token_hash"
            + " OR sandbox_enforcement.revision <> EXCLUDED.revision"
            + " OR sandbox_enforcement.own_known <> EXCLUDED.own_known"
            + " OR jsonb_array_length(EXCLUDED.bundle -> 'credentials') > 0";

    private final Sql jdbc;
    private final Events events;
    private final ObjectMapper json;
    private final EnforcementDocuments documents;
    private final EnforcementShared shared;

    public EnforcementStore(Sql jdbc, Events events, ObjectMapper json) {
        this.json = json;
        this.jdbc = jdbc;
        this.events = events;
        this.documents = new EnforcementDocuments(jdbc);
        this.shared = new EnforcementShared(jdbc, json);
    }

    /**
     * Records what each sandbox's proxy enforces from now on, in one JDBC batch, and publishes one {@code enforcement}
     * event per organization (on the caller's transaction). Documents new to the table are stored once. A row equal
     * to the one stored (same documents, token, revision and no credentials) keeps its version: no proxy is sent a set
     * that did not change. A row with credentials is always written, since their material is read when it is sent.
     */
    public void publishAll(List<SandboxEnforcement> all) {
        if (all.isEmpty()) {
            return;
        }
        serialize();
        SetBundles built = new SetBundles(json);
        List<SetBundles.Bundle> bundles = all.stream().map(built::bundle).toList();
        documents.store(built.texts());
        shared.store(built.lists().values()); // before the sets: a reader meets a list no later than a set naming it
        upsert(all, bundles);
        all.stream().map(SandboxEnforcement::orgId).distinct().forEach(org ->
                events.publish(Topic.ENFORCEMENT, org, Map.of("sandboxes", all.size())));
    }

    /**
     * Publishes shared lists alone (on the caller's transaction): a shared policy rewritten changes its list, and every
     * set naming the list follows it on every proxy without being written again. Returns the names of the lists whose
     * documents changed (the others keep their versions and no proxy hears of them).
     */
    public List<String> publishShared(List<SharedDocuments> lists) {
        if (lists.isEmpty()) {
            return List.of();
        }
        serialize();
        SetBundles built = new SetBundles(json);
        List<SharedList> hashed = lists.stream().map(built::list).toList();
        documents.store(built.texts());
        List<String> changed = shared.store(hashed);
        lists.stream().filter(l -> changed.contains(l.name())).map(SharedDocuments::orgId).distinct()
                .forEach(org -> events.publish(Topic.ENFORCEMENT, org, Map.of("shared", changed.size())));
        return changed;
    }

    /**
     * Writes the sets in one statement for the whole batch (arrays, one row each, in order): a policy change that
     * reaches a thousand sandboxes is one execution in PostgreSQL, not a thousand. A sandbox listed twice keeps its
     * last set. A row equal to the stored one keeps its version (see {@link #publishAll}).
     */
    private void upsert(List<SandboxEnforcement> all, List<SetBundles.Bundle> bundles) {
        Map<UUID, Integer> last = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            last.remove(all.get(i).sandboxId());
            last.put(all.get(i).sandboxId(), i);
        }
        List<Integer> rows = List.copyOf(last.values());
        jdbc.prepare(UPSERT, ps -> {
                    int n = rows.size();
                    Object[][] columns = new Object[8][n];
                    for (int k = 0; k < n; k++) {
                        SandboxEnforcement e = all.get(rows.get(k));
                        SetBundles.Bundle b = bundles.get(rows.get(k));
                        columns[0][k] = e.sandboxId();
                        columns[1][k] = e.orgId();
                        columns[2][k] = e.projectId();
                        columns[3][k] = e.tokenHash() == null ? null : HexFormat.of().formatHex(e.tokenHash());
                        columns[4][k] = e.revision();
                        columns[5][k] = b.bundle().toString();
                        columns[6][k] = b.own() == null ? null : b.own().hex();
                        columns[7][k] = e.own() != null;
                    }
                    String[] types = {"uuid", "uuid", "uuid", "text", "int4", "text", "text", "bool"};
                    Sql.bindColumns(ps, types, columns);
                    return ps.executeUpdate();
                });
    }

    /** Leaves a tombstone: the sandbox's proxy forgets it (on the caller's transaction). */
    public void remove(UUID sandboxId, UUID orgId) {
        serialize();
        Long version = jdbc.first("UPDATE sandbox_enforcement SET deleted = true, bundle = '{}'::jsonb,"
                + " token_hash = NULL, version = nextval('enforcement_version'), updated_at = now()"
                + " WHERE sandbox_id = ? RETURNING version", List.of(sandboxId), rs -> rs.getLong(1)).orElse(null);
        if (version != null) {
            events.publish(Topic.ENFORCEMENT, orgId, Map.of("sandboxId", sandboxId.toString(), "version", version));
        }
    }

    /**
     * Takes the write lock now (on the caller's transaction), before the caller reads what it will publish: a shared
     * list read before a concurrent policy write committed and written after that write's own re-publication would
     * otherwise put the old documents back for every set naming it. Under the lock, whoever writes last read last.
     */
    public void lock() {
        serialize();
    }

    /**
     * Versions must become visible in their order, or a reader that saw version 101 commit before 100 would skip 100
     * for ever: writers of this table take one transaction-scoped advisory lock before they draw a version, so they
     * commit one after another in version order. (Enforcement writes are short; a batch writes many rows at once.)
     */
    private void serialize() {
        jdbc.prepare("SELECT pg_advisory_xact_lock(" + WRITE_LOCK + ")", ps -> {
            ps.execute();
            return null;
        });
    }

    /**
     * The rows written after {@code version}, sets and shared lists, oldest first, at most {@code limit}, documents by
     * hash.
     */
    public List<ListedChange> changesAfter(long version, int limit) {
        return jdbc.query(CHANGES_AFTER, List.of(version, limit, version, limit, limit), this::listed);
    }

    /** The shared lists {@code names} as they are now (one query); names never published are left out. */
    public Map<String, SharedList> sharedLists(Collection<String> names) {
        return shared.lists(names);
    }

    /**
     * The live sets of {@code orgId} that name the shared list {@code name}, by sandbox (for a feed reader that
     * predates shared lists, which is sent each of them again when the list changes).
     */
    public List<ListedChange> setsNaming(UUID orgId, String name) {
        String part = json.createArrayNode().add(json.createObjectNode().put("shared", name)).toString();
        return jdbc.query(CHANGES + " WHERE org_id = ? AND NOT deleted AND (bundle -> 'grants' @> ?::jsonb"
                + " OR bundle -> 'ceiling' @> ?::jsonb) ORDER BY version", List.of(orgId, part, part), this::listed);
    }

    /** The texts of the documents {@code hashes} name that are stored (one query). */
    public Map<DocumentHash, String> documents(Collection<DocumentHash> hashes) {
        return documents.texts(hashes);
    }

    /** The text of one document, or empty when no set ever listed it. */
    public Optional<String> document(DocumentHash hash) {
        return Optional.ofNullable(documents.texts(List.of(hash)).get(hash));
    }

    /**
     * What a live set remembers of its sandbox's own document: the revision it was published for and the hash the
     * document was stored under ({@code null}: the sandbox had no embedded policy at that revision).
     */
    public record StoredOwn(int revision, DocumentHash hash) {
    }

    /** The own documents the live sets of {@code sandboxIds} remember (one query); sets that do not are left out. */
    public Map<UUID, StoredOwn> ownDocuments(Collection<UUID> sandboxIds) {
        Map<UUID, StoredOwn> out = new HashMap<>();
        if (sandboxIds.isEmpty()) {
            return out;
        }
        jdbc.prepare("SELECT sandbox_id, revision, own_sha256 FROM sandbox_enforcement WHERE sandbox_id = ANY (?)"
                + " AND NOT deleted AND own_known", ps -> {
                    ps.setArray(1, ps.getConnection().createArrayOf("uuid", sandboxIds.toArray()));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            String own = rs.getString(3);
                            out.put(rs.getObject(1, UUID.class), new StoredOwn(rs.getInt(2),
                                    own == null ? null : new DocumentHash(own)));
                        }
                    }
                    return null;
                });
        return out;
    }

    /**
     * Whether a live set of the organization (of one project when {@code projectId} is set) was written before shared
     * lists (its ceiling listed document by document): a policy's rewrite must then re-publish the sets, not only the
     * lists.
     */
    public boolean hasSetsWithoutSharedLists(UUID orgId, UUID projectId) {
        return jdbc.exists("SELECT 1 FROM sandbox_enforcement WHERE org_id = ? AND NOT deleted AND token_hash IS NOT NULL"
                + " AND project_id = coalesce(?::uuid, project_id)"
                + " AND NOT (bundle -> 'ceiling' @> '[{}]'::jsonb AND jsonb_array_length(bundle -> 'ceiling') = 1)",
                java.util.Arrays.asList(orgId, projectId));
    }

    /** The organization and project of a sandbox that has (or had) a row; empty for an unknown id. */
    public Optional<UUID[]> owner(UUID sandboxId) {
        return jdbc.first("SELECT org_id, project_id FROM sandbox_enforcement WHERE sandbox_id = ?", List.of(sandboxId),
                rs -> new UUID[] {rs.getObject(1, UUID.class), rs.getObject(2, UUID.class)});
    }

    /** The live (not deleted) rows of an organization, by sandbox id, with their documents and shared lists now. */
    public List<Change> current(UUID orgId) {
        List<ListedChange> rows = jdbc.query(CHANGES + " WHERE org_id = ? AND NOT deleted ORDER BY sandbox_id",
                List.of(orgId), this::listed);
        Map<String, SharedList> lists = sharedLists(rows.stream().flatMap(r -> java.util.stream.Stream.concat(
                r.set().grants().stream(), r.set().ceiling().stream())).filter(p -> p instanceof SetPart.Shared)
                .map(p -> ((SetPart.Shared) p).name()).distinct().toList());
        Set<DocumentHash> wanted = new HashSet<>();
        lists.values().forEach(l -> wanted.addAll(l.documents()));
        rows.forEach(r -> r.set().grants().stream().filter(p -> p instanceof SetPart.Document)
                .forEach(p -> wanted.add(((SetPart.Document) p).hash())));
        rows.forEach(r -> r.set().ceiling().stream().filter(p -> p instanceof SetPart.Document)
                .forEach(p -> wanted.add(((SetPart.Document) p).hash())));
        Map<DocumentHash, JsonNode> trees = new HashMap<>();
        documents.texts(wanted).forEach((h, text) -> trees.put(h, read(text)));
        List<Change> out = new ArrayList<>(rows.size());
        for (ListedChange r : rows) {
            ListedSet s = r.set();
            out.add(new Change(r.version(), r.sandboxId(), r.orgId(), false, new SandboxEnforcement(r.sandboxId(),
                    r.orgId(), s.projectId(), s.tokenHash(), s.revision(), whole(s.grants(), lists, trees),
                    whole(s.ceiling(), lists, trees), s.credentials(), null)));
        }
        return out;
    }

    private static List<SandboxEnforcement.Part> whole(List<SetPart> parts, Map<String, SharedList> lists,
                                                       Map<DocumentHash, JsonNode> trees) {
        List<SandboxEnforcement.Part> out = new ArrayList<>(parts.size());
        for (SetPart p : parts) {
            if (p instanceof SetPart.Document d) {
                out.add(SandboxEnforcement.Part.document(trees.get(d.hash())));
            } else if (p instanceof SetPart.Shared sh) {
                SharedList l = lists.get(sh.name());
                out.add(SandboxEnforcement.Part.shared(sh.name(), l == null ? List.of()
                        : l.documents().stream().map(trees::get).toList()));
            }
        }
        return out;
    }

    private ListedChange listed(ResultSet rs) throws SQLException {
        long version = rs.getLong(1);
        UUID sandboxId = rs.getObject(2, UUID.class);
        UUID orgId = rs.getObject(3, UUID.class);
        String shared = rs.getString(9);
        if (shared != null) {
            return new ListedChange(version, null, orgId, false, null,
                    new SharedList(shared, orgId, SetBundles.hashes(read(rs.getString(7)))));
        }
        if (rs.getBoolean(8)) {
            return new ListedChange(version, sandboxId, orgId, true, null);
        }
        JsonNode bundle = read(rs.getString(7));
        List<UUID> credentials = new ArrayList<>();
        bundle.path("credentials").forEach(c -> credentials.add(UUID.fromString(c.asText())));
        return new ListedChange(version, sandboxId, orgId, false, new ListedSet(rs.getObject(4, UUID.class),
                rs.getBytes(5), rs.getInt(6), SetBundles.parts(bundle.path("grants")),
                SetBundles.parts(bundle.path("ceiling")),
                credentials));
    }

    private JsonNode read(String text) {
        return SetBundles.tree(json, text);
    }
}
