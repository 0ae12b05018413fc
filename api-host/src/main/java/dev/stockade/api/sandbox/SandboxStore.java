package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** SQL of the sandbox feature: rows, revisions, states, timers. Runs on the caller's transaction. */
@Singleton
record SandboxStore(Sql jdbc, ObjectMapper json) {
    private static final String SELECT = "SELECT s.id, s.org_id, s.project_id, s.name, s.slug, s.state, s.detail,"
            + " s.stopped_by, s.active_revision, s.previous_revision, s.auto_stop_seconds, s.auto_delete_seconds,"
            + " s.auto_start, s.token_id, s.token_sealed, s.last_activity_at, s.state_changed_at, s.created_at,"
            + " s.updated_at, r.config::text FROM sandboxes s JOIN sandbox_revisions r ON r.sandbox_id = s.id"
            + " AND r.revision = s.active_revision";

    void insert(Sandbox s, String createdBy) {
        jdbc.prepare("INSERT INTO sandboxes (id, org_id, project_id, name, slug, state, active_revision,"
                + " auto_stop_seconds, auto_delete_seconds, auto_start, token_id, token_sealed, last_activity_at,"
                + " state_changed_at, created_by) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)", ps -> {
                    ps.setObject(1, s.id(), Types.OTHER);
                    ps.setObject(2, s.orgId(), Types.OTHER);
                    ps.setObject(3, s.projectId(), Types.OTHER);
                    ps.setString(4, s.name());
                    ps.setString(5, s.slug());
                    ps.setString(6, s.state().slug());
                    setSeconds(ps, 7, s.autoStop());
                    setSeconds(ps, 8, s.autoDelete());
                    ps.setBoolean(9, s.autoStart());
                    ps.setObject(10, s.tokenId(), Types.OTHER);
                    ps.setString(11, s.tokenSealed());
                    ps.setTimestamp(12, Timestamp.from(s.lastActivityAt()));
                    ps.setTimestamp(13, Timestamp.from(s.stateChangedAt()));
                    ps.setString(14, createdBy);
                    return ps.executeUpdate();
                });
    }

    /** Adds revision {@code revision} with {@code config}. */
    void addRevision(UUID id, int revision, SandboxConfig config, String createdBy) {
        jdbc.prepare("INSERT INTO sandbox_revisions (sandbox_id, revision, config, created_by) VALUES (?, ?, ?::jsonb, ?)",
                ps -> {
                    ps.setObject(1, id, Types.OTHER);
                    ps.setInt(2, revision);
                    ps.setString(3, config.toJson().toString());
                    ps.setString(4, createdBy);
                    return ps.executeUpdate();
                });
    }

    int lastRevision(UUID id) {
        return jdbc.prepare("SELECT max(revision) FROM sandbox_revisions WHERE sandbox_id = ?", ps -> {
            ps.setObject(1, id, Types.OTHER);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    /** One stored revision: its configuration and what the provisioner recorded of it (null until then). */
    record Revision(int revision, JsonNode config, @Nullable JsonNode provisioned, String createdBy,
                    Instant createdAt) {
    }

    /** The revisions of a sandbox, newest first. */
    List<Revision> revisions(UUID id) {
        return jdbc.query("SELECT revision, config::text, provisioned::text, created_by, created_at FROM"
                + " sandbox_revisions WHERE sandbox_id = ? ORDER BY revision DESC", List.of(id),
                rs -> new Revision(rs.getInt(1), json(rs.getString(2)),
                        rs.getString(3) == null ? null : json(rs.getString(3)), rs.getString(4),
                        rs.getTimestamp(5).toInstant()));
    }

    void recordProvisioned(UUID id, int revision, JsonNode record) {
        jdbc.prepare("UPDATE sandbox_revisions SET provisioned = ?::jsonb WHERE sandbox_id = ? AND revision = ?", ps -> {
            ps.setString(1, record.toString());
            ps.setObject(2, id, Types.OTHER);
            ps.setInt(3, revision);
            return ps.executeUpdate();
        });
    }

    void activate(UUID id, int revision) {
        jdbc.prepare("UPDATE sandboxes SET previous_revision = active_revision, active_revision = ?, updated_at = now()"
                + " WHERE id = ?", ps -> {
                    ps.setInt(1, revision);
                    ps.setObject(2, id, Types.OTHER);
                    return ps.executeUpdate();
                });
    }

    void setTimers(UUID id, SandboxBody.Timers t) {
        jdbc.prepare("UPDATE sandboxes SET auto_stop_seconds = ?, auto_delete_seconds = ?, auto_start = ?,"
                + " updated_at = now() WHERE id = ?", ps -> {
                    setSeconds(ps, 1, t.autoStop());
                    setSeconds(ps, 2, t.autoDelete());
                    ps.setBoolean(3, t.autoStart());
                    ps.setObject(4, id, Types.OTHER);
                    return ps.executeUpdate();
                });
    }

    /** Makes the move if the sandbox is in a state that accepts it; whether it moved. */
    boolean transition(UUID id, SandboxState.Transition move, String detail, String stoppedBy, Instant now) {
        String state = move.to().slug();
        return jdbc.prepare("UPDATE sandboxes SET state = ?, detail = ?, stopped_by = ?, state_changed_at = ?,"
                + " last_activity_at = CASE WHEN ? = 'running' THEN ? ELSE last_activity_at END, updated_at = now()"
                + " WHERE id = ? AND state = ANY (?)", ps -> {
                    ps.setString(1, state);
                    ps.setString(2, detail == null ? "" : detail);
                    ps.setString(3, stoppedBy);
                    ps.setTimestamp(4, Timestamp.from(now));
                    ps.setString(5, state);
                    ps.setTimestamp(6, Timestamp.from(now));
                    ps.setObject(7, id, Types.OTHER);
                    ps.setArray(8, ps.getConnection().createArrayOf("text",
                            move.from().stream().map(SandboxState::slug).toArray()));
                    return ps.executeUpdate() == 1;
                });
    }

    void touch(UUID id, Instant now) {
        jdbc.prepare("UPDATE sandboxes SET last_activity_at = ? WHERE id = ? AND last_activity_at < ?", ps -> {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setObject(2, id, Types.OTHER);
            ps.setTimestamp(3, Timestamp.from(now));
            return ps.executeUpdate();
        });
    }

    void delete(UUID id) {
        jdbc.prepare("DELETE FROM sandboxes WHERE id = ?", ps -> {
            ps.setObject(1, id, Types.OTHER);
            return ps.executeUpdate();
        });
    }

    Optional<Sandbox> find(UUID id) {
        return jdbc.first(SELECT + " WHERE s.id = ?", List.of(id), this::row);
    }

    /** Claims a governance event for re-enforcement (on the caller's transaction); false when already claimed. */
    boolean claimGovernanceEvent(long eventId) {
        return jdbc.prepare("INSERT INTO governance_applied (event_id) VALUES (?) ON CONFLICT DO NOTHING", ps -> {
            ps.setLong(1, eventId);
            return ps.executeUpdate() == 1;
        });
    }

    Optional<Sandbox> findByToken(UUID tokenId) {
        return jdbc.first(SELECT + " WHERE s.token_id = ?", List.of(tokenId), this::row);
    }

    Optional<Sandbox> findBySlug(String slug) {
        return jdbc.first(SELECT + " WHERE s.slug = ?", List.of(slug), this::row);
    }

    Sandbox get(UUID projectId, UUID id) {
        return jdbc.first(SELECT + " WHERE s.project_id = ? AND s.id = ?", List.of(projectId, id), this::row)
                .orElseThrow(() -> ApiProblem.notFound("sandbox `" + id + "`"));
    }

    List<Sandbox> list(UUID projectId) {
        return jdbc.query(SELECT + " WHERE s.project_id = ? ORDER BY s.created_at, s.id", List.of(projectId),
                this::row);
    }

    /** Sandboxes of an organization (a project's when {@code projectId} is set). */
    List<Sandbox> ofOrg(UUID orgId, UUID projectId) {
        return jdbc.query(SELECT + " WHERE s.org_id = ? AND (?::uuid IS NULL OR s.project_id = ?::uuid)",
                Arrays.asList(orgId, projectId, projectId), this::row);
    }

    /**
     * A sandbox as a re-publication reads it: what its set is made of, without its embedded policy's text.
     * {@code ownType} is the JSON type of the revision's {@code policy} ({@code "object"}: an embedded policy,
     * {@code "null"}: none; anything else, or {@code null} when absent, is left to the full read). {@code tokenHash}
     * is the hash the sandbox's live set holds for its token, or {@code null} when it holds none: a sandbox's token is
     * sealed once, when it is created, and never replaced, so the hash stays its token's.
     */
    record Listed(UUID id, UUID orgId, UUID projectId, int activeRevision, String tokenSealed, List<UUID> policies,
                  List<UUID> credentials, String ownType, byte[] tokenHash) {
    }

    /** The sandboxes {@link #ofOrg} returns, read as {@link Listed} (the database picks the few fields out). */
    List<Listed> listedOfOrg(UUID orgId, UUID projectId) {
        return jdbc.query("SELECT s.id, s.org_id, s.project_id, s.active_revision, s.token_sealed,"
                + " (r.config -> 'policies')::text, (r.config -> 'credentials')::text,"
                + " jsonb_typeof(r.config -> 'policy'), e.token_hash"
                + " FROM sandboxes s JOIN sandbox_revisions r ON r.sandbox_id = s.id AND r.revision = s.active_revision"
                + " LEFT JOIN sandbox_enforcement e ON e.sandbox_id = s.id AND NOT e.deleted"
                + " WHERE s.org_id = ? AND (?::uuid IS NULL OR s.project_id = ?::uuid)",
                Arrays.asList(orgId, projectId, projectId), rs -> new Listed(rs.getObject(1, UUID.class),
                        rs.getObject(2, UUID.class), rs.getObject(3, UUID.class), rs.getInt(4), rs.getString(5),
                        uuids(rs.getString(6)), uuids(rs.getString(7)), rs.getString(8), rs.getBytes(9)));
    }

    private List<UUID> uuids(String jsonArray) {
        List<UUID> out = new java.util.ArrayList<>();
        if (jsonArray != null) {
            json(jsonArray).forEach(id -> out.add(UUID.fromString(id.asText())));
        }
        return out;
    }

    /** Sandboxes that should run (after a host restart they are provisioned again). */
    List<Sandbox> meantToRun() {
        return jdbc.query(SELECT + " WHERE s.state IN ('creating', 'starting', 'running')", List.of(), this::row);
    }

    /** Ids of running sandboxes idle past their auto-stop, locked for this transaction (others skip them). */
    List<UUID> dueToStop(Instant now) {
        return ids("SELECT id FROM sandboxes WHERE state = 'running' AND auto_stop_seconds IS NOT NULL AND"
                + " last_activity_at + auto_stop_seconds * interval '1 second' <= ? FOR UPDATE SKIP LOCKED LIMIT 100", now);
    }

    /** Ids of stopped sandboxes past their auto-delete, locked for this transaction. */
    List<UUID> dueToDelete(Instant now) {
        return ids("SELECT id FROM sandboxes WHERE state = 'stopped' AND auto_delete_seconds IS NOT NULL AND"
                + " state_changed_at + auto_delete_seconds * interval '1 second' <= ? FOR UPDATE SKIP LOCKED LIMIT 100",
                now);
    }

    private List<UUID> ids(String sql, Instant now) {
        return jdbc.query(sql, List.of(now), rs -> rs.getObject(1, UUID.class));
    }

    private Sandbox row(ResultSet rs) throws SQLException {
        return new Sandbox(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getString(4), rs.getString(5), SandboxState.of(rs.getString(6)), rs.getString(7), rs.getString(8), rs.getInt(9),
                (Integer) rs.getObject(10), seconds(rs, 11), seconds(rs, 12), rs.getBoolean(13),
                rs.getObject(14, UUID.class), rs.getString(15), rs.getTimestamp(16).toInstant(),
                rs.getTimestamp(17).toInstant(), rs.getTimestamp(18).toInstant(), rs.getTimestamp(19).toInstant(),
                SandboxConfig.fromJson(json(rs.getString(20))));
    }

    private static Duration seconds(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : Duration.ofSeconds(v);
    }

    private static void setSeconds(PreparedStatement ps, int i, Duration d) throws SQLException {
        if (d == null) {
            ps.setNull(i, Types.BIGINT);
        } else {
            ps.setLong(i, d.toSeconds());
        }
    }

    private JsonNode json(String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
