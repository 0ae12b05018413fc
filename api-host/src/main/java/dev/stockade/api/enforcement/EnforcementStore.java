package dev.stockade.api.enforcement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code sandbox_enforcement} table: the sandbox feature publishes what a sandbox's proxy must enforce on its own
 * transaction; the proxy feed reads the changes after a version. Each write takes the next version and publishes an
 * {@code enforcement} event, so listeners on every replica wake after commit.
 */
@Singleton
public class EnforcementStore {
    /** One row as the feed reads it; {@code enforcement} is null for a tombstone. */
    public record Change(long version, UUID sandboxId, UUID orgId, boolean deleted, SandboxEnforcement enforcement) {
    }

    /** The advisory lock key of enforcement writes ("stk-enfo" in ASCII). */
    private static final long WRITE_LOCK = 0x73746b2d656e666fL;

    /** The columns {@link #change} reads. */
    private static final String CHANGES = "SELECT version, sandbox_id, org_id, project_id, token_hash, revision,"
            + " bundle::text, deleted FROM sandbox_enforcement";

    private final Sql jdbc;
    private final Events events;
    private final ObjectMapper json;

    public EnforcementStore(Sql jdbc, Events events, ObjectMapper json) {
        this.json = json;
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * Records what each sandbox's proxy enforces from now on, in one JDBC batch, and publishes one {@code enforcement}
     * event per organization (on the caller's transaction).
     */
    public void publishAll(List<SandboxEnforcement> all) {
        if (all.isEmpty()) {
            return;
        }
        serialize();
        jdbc.prepare("INSERT INTO sandbox_enforcement (sandbox_id, org_id, project_id, token_hash, revision, bundle,"
                + " version, deleted, updated_at) VALUES (?, ?, ?, ?, ?, ?::jsonb, nextval('enforcement_version'),"
                + " false, now()) ON CONFLICT (sandbox_id) DO UPDATE SET token_hash = EXCLUDED.token_hash,"
                + " revision = EXCLUDED.revision, bundle = EXCLUDED.bundle, version = EXCLUDED.version,"
                + " deleted = false, updated_at = now()", ps -> {
                    for (SandboxEnforcement e : all) {
                        ps.setObject(1, e.sandboxId(), Types.OTHER);
                        ps.setObject(2, e.orgId(), Types.OTHER);
                        ps.setObject(3, e.projectId(), Types.OTHER);
                        ps.setBytes(4, e.tokenHash());
                        ps.setInt(5, e.revision());
                        ps.setString(6, bundle(e).toString());
                        ps.addBatch();
                    }
                    return ps.executeBatch();
                });
        all.stream().map(SandboxEnforcement::orgId).distinct().forEach(org ->
                events.publish(Topic.ENFORCEMENT, org, Map.of("sandboxes", all.size())));
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

    /** The rows written after {@code version}, oldest first, at most {@code limit}. */
    public List<Change> changesAfter(long version, int limit) {
        return jdbc.query(CHANGES + " WHERE version > ? ORDER BY version LIMIT ?", List.of(version, limit),
                this::change);
    }

    /** The organization and project of a sandbox that has (or had) a row; empty for an unknown id. */
    public java.util.Optional<UUID[]> owner(UUID sandboxId) {
        return jdbc.first("SELECT org_id, project_id FROM sandbox_enforcement WHERE sandbox_id = ?", List.of(sandboxId),
                rs -> new UUID[] {rs.getObject(1, UUID.class), rs.getObject(2, UUID.class)});
    }

    /** The live (not deleted) rows of an organization, by sandbox id. */
    public List<Change> current(UUID orgId) {
        return jdbc.query(CHANGES + " WHERE org_id = ? AND NOT deleted ORDER BY sandbox_id", List.of(orgId),
                this::change);
    }

    private Change change(ResultSet rs) throws SQLException {
        long version = rs.getLong(1);
        UUID sandboxId = rs.getObject(2, UUID.class);
        UUID orgId = rs.getObject(3, UUID.class);
        if (rs.getBoolean(8)) {
            return new Change(version, sandboxId, orgId, true, null);
        }
        JsonNode bundle = read(rs.getString(7));
        List<JsonNode> grants = new ArrayList<>();
        bundle.path("grants").forEach(grants::add);
        List<JsonNode> ceiling = new ArrayList<>();
        bundle.path("ceiling").forEach(ceiling::add);
        List<UUID> credentials = new ArrayList<>();
        bundle.path("credentials").forEach(c -> credentials.add(UUID.fromString(c.asText())));
        return new Change(version, sandboxId, orgId, false, new SandboxEnforcement(sandboxId, orgId,
                rs.getObject(4, UUID.class), rs.getBytes(5), rs.getInt(6), grants, ceiling, credentials));
    }

    private ObjectNode bundle(SandboxEnforcement e) {
        ObjectNode b = json.createObjectNode();
        ArrayNode grants = b.putArray("grants");
        e.grants().forEach(grants::add);
        ArrayNode ceiling = b.putArray("ceiling");
        e.ceiling().forEach(ceiling::add);
        ArrayNode credentials = b.putArray("credentials");
        e.credentials().forEach(id -> credentials.add(id.toString()));
        return b;
    }

    private JsonNode read(String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("stored enforcement bundle is not JSON", e);
        }
    }
}
