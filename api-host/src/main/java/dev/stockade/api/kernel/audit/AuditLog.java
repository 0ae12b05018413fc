package dev.stockade.api.kernel.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Appends to the audit trail on the caller's transaction: an entry is committed with the change it records or not
 * at all, so nothing the API acknowledged lacks its entry.
 */
@Singleton
public final class AuditLog {
    private static final String INSERT = "INSERT INTO audit_entries (org_id, project_id, kind, action, is_read, outcome,"
            + " actor_type, actor_id, target, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)";

    private final Sql jdbc;
    private final ObjectMapper json;

    public AuditLog(Sql jdbc, ObjectMapper json) {
        this.json = json;
        this.jdbc = jdbc;
    }

    public void record(AuditEvent e) {
        jdbc.prepare(INSERT, ps -> {
            bind(ps, e);
            return ps.executeUpdate();
        });
    }


    private void bind(PreparedStatement ps, AuditEvent e) throws SQLException {
        ps.setObject(1, e.orgId(), Types.OTHER);
        ps.setObject(2, e.projectId(), Types.OTHER);
        ps.setString(3, e.kind().slug());
        ps.setString(4, e.action());
        ps.setBoolean(5, e.read());
        ps.setString(6, e.outcome().slug());
        ps.setString(7, e.actorType());
        ps.setString(8, e.actorId());
        ps.setString(9, e.target());
        ps.setString(10, detailsJson(json, e));
    }

    /** The entry's details as JSON text (also used by {@link AuditAppender}). */
    static String detailsJson(ObjectMapper json, AuditEvent e) {
        try {
            return json.writeValueAsString(e.details());
        } catch (JsonProcessingException ex) {
            throw new IllegalArgumentException("audit details are not serialisable", ex);
        }
    }
}
