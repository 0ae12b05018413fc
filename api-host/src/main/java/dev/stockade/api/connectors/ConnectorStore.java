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
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** The rows of connectors and their specs. Callers hold the transaction. */
@Singleton
record ConnectorStore(Sql jdbc, ObjectMapper json) {
    private static final String COLUMNS = "s.id, s.org_id, s.project_id, s.name, s.kind, s.url, s.status, s.last_error,"
            + " s.created_by, s.created_at, s.synced_at, a.id, a.tools::text, s.document_url";
    private static final String FROM = " FROM mcp_servers s LEFT JOIN mcp_server_specs a ON a.server_id = s.id"
            + " AND a.status = 'active'";
    private static final String SPEC_COLUMNS = "id, server_id, status, tools::text, digest, created_at";

    void insert(Connector c) {
        jdbc.update("INSERT INTO mcp_servers (id, org_id, project_id, name, kind, url, status, last_error, created_by,"
                + " created_at, synced_at, document_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                Arrays.asList(c.id(), c.orgId(), c.projectId(), c.name(), c.kind(), c.url(), c.status(), c.lastError(),
                        c.createdBy(), c.createdAt(), c.syncedAt(), c.documentUrl()));
    }

    void markSynced(UUID id, String status, String lastError) {
        jdbc.update("UPDATE mcp_servers SET status = ?, last_error = ?, synced_at = now() WHERE id = ?",
                Arrays.asList(status, lastError, id));
    }

    boolean delete(UUID id) {
        return jdbc.update("DELETE FROM mcp_servers WHERE id = ?", List.of(id)) > 0;
    }

    List<Connector> ofProject(UUID projectId) {
        return jdbc.query("SELECT " + COLUMNS + FROM + " WHERE s.project_id = ? ORDER BY s.name", List.of(projectId),
                this::row);
    }

    public Connector get(UUID id) {
        return jdbc.first("SELECT " + COLUMNS + FROM + " WHERE s.id = ?", List.of(id), this::row)
                .orElseThrow(() -> ApiProblem.notFound("connector `" + id + "`"));
    }

    /** The connectors among {@code ids} that belong to the organization, oldest first (a stable naming order). */
    public List<Connector> ofOrg(UUID orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.query("SELECT " + COLUMNS + FROM + " WHERE s.org_id = ? AND s.id = ANY (?) ORDER BY s.created_at,"
                + " s.id", List.of(orgId, ids.toArray(UUID[]::new)), this::row);
    }

    /** The entries hidden among the connectors' tools: connector id to entry names. */
    public Map<UUID, Set<String>> hidden(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return jdbc.query("SELECT server_id, entry_name FROM mcp_server_entries WHERE NOT visible"
                + " AND server_id = ANY (?)", List.of((Object) ids.toArray(UUID[]::new)),
                rs -> Map.entry(rs.getObject(1, UUID.class), rs.getString(2))).stream()
                .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue,
                        Collectors.toSet())));
    }

    void setVisibility(UUID serverId, String entry, boolean visible, String by) {
        jdbc.update("INSERT INTO mcp_server_entries (server_id, entry_name, visible, updated_by) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (server_id, entry_name) DO UPDATE SET visible = EXCLUDED.visible,"
                + " updated_by = EXCLUDED.updated_by, updated_at = now()", List.of(serverId, entry, visible, by));
    }

    void insertSpec(UUID id, UUID serverId, String status, JsonNode tools, String digest) {
        jdbc.update("INSERT INTO mcp_server_specs (id, server_id, status, tools, digest) VALUES (?, ?, ?, ?::jsonb, ?)",
                List.of(id, serverId, status, tools.toString(), digest));
    }

    /** Sets the status of every spec of the server now in {@code from} to {@code to}. */
    void moveSpecs(UUID serverId, String from, String to) {
        jdbc.update("UPDATE mcp_server_specs SET status = ? WHERE server_id = ? AND status = ?",
                List.of(to, serverId, from));
    }

    void setSpecStatus(UUID specId, String status) {
        jdbc.update("UPDATE mcp_server_specs SET status = ? WHERE id = ?", List.of(status, specId));
    }

    List<Spec> specs(UUID serverId, String status) {
        return jdbc.query("SELECT " + SPEC_COLUMNS + " FROM mcp_server_specs WHERE server_id = ?"
                + (status == null ? "" : " AND status = ?") + " ORDER BY created_at DESC, id",
                status == null ? List.of(serverId) : List.of(serverId, status),
                rs -> new Spec(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                        read(rs.getString(4)), rs.getString(5), rs.getTimestamp(6).toInstant()));
    }

    Spec spec(UUID serverId, UUID specId) {
        return specs(serverId, null).stream().filter(s -> s.id().equals(specId)).findFirst()
                .orElseThrow(() -> ApiProblem.notFound("spec `" + specId + "` (of this connector)"));
    }

    private Connector row(ResultSet rs) throws SQLException {
        Timestamp synced = rs.getTimestamp(11);
        return new Connector(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(14), rs.getString(7), rs.getString(8),
                rs.getString(9), rs.getTimestamp(10).toInstant(), synced == null ? null : synced.toInstant(),
                rs.getObject(12, UUID.class),
                rs.getString(13) == null ? List.of() : Connector.tools(read(rs.getString(13))));
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
