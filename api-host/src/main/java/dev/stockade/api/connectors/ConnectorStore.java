package dev.stockade.api.connectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.web.ApiProblem;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** The rows of connectors and their specs. Callers hold the transaction. */
@Singleton
public class ConnectorStore {
    private static final String COLUMNS = "s.id, s.org_id, s.project_id, s.name, s.kind, s.url, s.status, s.last_error,"
            + " s.created_by, s.created_at, s.synced_at, a.id, a.tools::text, s.document_url";
    private static final String FROM = " FROM mcp_servers s LEFT JOIN mcp_server_specs a ON a.server_id = s.id"
            + " AND a.status = 'active'";
    private static final String SPEC_COLUMNS = "id, server_id, status, tools::text, digest, created_at";

    private final Sql jdbc;
    private final ObjectMapper json;

    public ConnectorStore(Sql jdbc, ObjectMapper json) {
        this.json = json;
        this.jdbc = jdbc;
    }

    void insert(Connector c) {
        jdbc.prepare("INSERT INTO mcp_servers (id, org_id, project_id, name, kind, url, status, last_error, created_by,"
                + " created_at, synced_at, document_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", ps -> {
                    ps.setObject(1, c.id(), Types.OTHER);
                    ps.setObject(2, c.orgId(), Types.OTHER);
                    ps.setObject(3, c.projectId(), Types.OTHER);
                    ps.setString(4, c.name());
                    ps.setString(5, c.kind());
                    ps.setString(6, c.url());
                    ps.setString(7, c.status());
                    ps.setString(8, c.lastError());
                    ps.setString(9, c.createdBy());
                    ps.setTimestamp(10, Timestamp.from(c.createdAt()));
                    ps.setTimestamp(11, c.syncedAt() == null ? null : Timestamp.from(c.syncedAt()));
                    ps.setString(12, c.documentUrl());
                    return ps.executeUpdate();
                });
    }

    void markSynced(UUID id, String status, String lastError) {
        jdbc.prepare("UPDATE mcp_servers SET status = ?, last_error = ?, synced_at = now() WHERE id = ?", ps -> {
            ps.setString(1, status);
            ps.setString(2, lastError);
            ps.setObject(3, id, Types.OTHER);
            return ps.executeUpdate();
        });
    }

    boolean delete(UUID id) {
        return jdbc.prepare("DELETE FROM mcp_servers WHERE id = ?", ps -> {
            ps.setObject(1, id, Types.OTHER);
            return ps.executeUpdate() > 0;
        });
    }

    List<Connector> ofProject(UUID projectId) {
        return query("SELECT " + COLUMNS + FROM + " WHERE s.project_id = ? ORDER BY s.name", projectId);
    }

    public Connector get(UUID id) {
        List<Connector> found = query("SELECT " + COLUMNS + FROM + " WHERE s.id = ?", id);
        if (found.isEmpty()) {
            throw ApiProblem.notFound("connector `" + id + "`");
        }
        return found.get(0);
    }

    /** The connectors among {@code ids} that belong to the organization, oldest first (a stable naming order). */
    public List<Connector> ofOrg(UUID orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.prepare("SELECT " + COLUMNS + FROM + " WHERE s.org_id = ? AND s.id = ANY (?) ORDER BY s.created_at,"
                + " s.id", ps -> {
                    ps.setObject(1, orgId, Types.OTHER);
                    ps.setArray(2, ps.getConnection().createArrayOf("uuid", ids.toArray()));
                    return rows(ps.executeQuery());
                });
    }

    /** The entries hidden among the connectors' tools: connector id to entry names. */
    public Map<UUID, Set<String>> hidden(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return jdbc.prepare("SELECT server_id, entry_name FROM mcp_server_entries WHERE NOT visible"
                + " AND server_id = ANY (?)", ps -> {
                    ps.setArray(1, ps.getConnection().createArrayOf("uuid", ids.toArray()));
                    Map<UUID, Set<String>> out = new HashMap<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.computeIfAbsent(rs.getObject(1, UUID.class), k -> new HashSet<>()).add(rs.getString(2));
                        }
                    }
                    return out;
                });
    }

    void setVisibility(UUID serverId, String entry, boolean visible, String by) {
        jdbc.prepare("INSERT INTO mcp_server_entries (server_id, entry_name, visible, updated_by) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (server_id, entry_name) DO UPDATE SET visible = EXCLUDED.visible,"
                + " updated_by = EXCLUDED.updated_by, updated_at = now()", ps -> {
                    ps.setObject(1, serverId, Types.OTHER);
                    ps.setString(2, entry);
                    ps.setBoolean(3, visible);
                    ps.setString(4, by);
                    return ps.executeUpdate();
                });
    }

    void insertSpec(UUID id, UUID serverId, String status, JsonNode tools, String digest) {
        jdbc.prepare("INSERT INTO mcp_server_specs (id, server_id, status, tools, digest) VALUES (?, ?, ?, ?::jsonb, ?)",
                ps -> {
                    ps.setObject(1, id, Types.OTHER);
                    ps.setObject(2, serverId, Types.OTHER);
                    ps.setString(3, status);
                    ps.setString(4, tools.toString());
                    ps.setString(5, digest);
                    return ps.executeUpdate();
                });
    }

    /** Sets the status of every spec of the server now in {@code from} to {@code to}. */
    void moveSpecs(UUID serverId, String from, String to) {
        jdbc.prepare("UPDATE mcp_server_specs SET status = ? WHERE server_id = ? AND status = ?", ps -> {
            ps.setString(1, to);
            ps.setObject(2, serverId, Types.OTHER);
            ps.setString(3, from);
            return ps.executeUpdate();
        });
    }

    void setSpecStatus(UUID specId, String status) {
        jdbc.prepare("UPDATE mcp_server_specs SET status = ? WHERE id = ?", ps -> {
            ps.setString(1, status);
            ps.setObject(2, specId, Types.OTHER);
            return ps.executeUpdate();
        });
    }

    List<Spec> specs(UUID serverId, String status) {
        return jdbc.prepare("SELECT " + SPEC_COLUMNS + " FROM mcp_server_specs WHERE server_id = ?"
                + (status == null ? "" : " AND status = ?") + " ORDER BY created_at DESC, id", ps -> {
                    ps.setObject(1, serverId, Types.OTHER);
                    if (status != null) {
                        ps.setString(2, status);
                    }
                    List<Spec> out = new ArrayList<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.add(new Spec(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                                    read(rs.getString(4)), rs.getString(5), rs.getTimestamp(6).toInstant()));
                        }
                    }
                    return out;
                });
    }

    Spec spec(UUID serverId, UUID specId) {
        return specs(serverId, null).stream().filter(s -> s.id().equals(specId)).findFirst()
                .orElseThrow(() -> ApiProblem.notFound("spec `" + specId + "` (of this connector)"));
    }

    private List<Connector> query(String sql, UUID param) {
        return jdbc.prepare(sql, ps -> {
            ps.setObject(1, param, Types.OTHER);
            return rows(ps.executeQuery());
        });
    }

    private List<Connector> rows(ResultSet rs) throws SQLException {
        List<Connector> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                Timestamp synced = rs.getTimestamp(11);
                out.add(new Connector(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class),
                        rs.getObject(3, UUID.class), rs.getString(4), rs.getString(5), rs.getString(6),
                        rs.getString(14), rs.getString(7), rs.getString(8), rs.getString(9), rs.getTimestamp(10).toInstant(),
                        synced == null ? null : synced.toInstant(), rs.getObject(12, UUID.class),
                        rs.getString(13) == null ? List.of() : Connector.tools(read(rs.getString(13)))));
            }
        }
        return out;
    }

    private JsonNode read(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored spec is not JSON", e);
        }
    }

    /** A discovered tool list of a connector: active, pending promotion, or superseded. */
    public record Spec(UUID id, UUID serverId, String status, JsonNode tools, String digest, Instant createdAt) {
    }
}
