package dev.stockade.api.governance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Org and project policies: stored as the core checked them, names unique per scope, every write audited under kind
 * {@code policy}. An org policy has {@code projectId == null}; the grant's project decides the scope.
 */
@Singleton
public class PolicyService {
    private final ObjectMapper mapper;
    private static final String COLUMNS = "id, org_id, project_id, name, document, created_at, updated_at";

    private final Sql jdbc;
    private final AuditLog audit;
    private final Events events;

    public PolicyService(Sql jdbc, AuditLog audit, Events events, ObjectMapper mapper) {
        this.mapper = mapper;
        this.jdbc = jdbc;
        this.audit = audit;
        this.events = events;
    }

    /** A stored policy. */
    public record StoredPolicy(UUID id, UUID orgId, UUID projectId, String name, JsonNode policy, Instant createdAt,
                               Instant updatedAt) {
    }

    @Transactional
    public StoredPolicy create(Identity caller, Grant scope, String text) {
        JsonNode tree = PolicyChecks.read(text);
        String name = tree.path("name").asText();
        refuseTakenName(scope, name, null);
        UUID id = UUID.randomUUID();
        jdbc.prepare("INSERT INTO policies (id, org_id, project_id, name, document, source) VALUES (?, ?, ?, ?, ?::jsonb, ?)",
                ps -> {
                    ps.setObject(1, id, Types.OTHER);
                    bindScope(ps, 2, scope);
                    ps.setString(4, name);
                    ps.setString(5, tree.toString());
                    ps.setString(6, text);
                    return write(ps, scope, name);
                });
        audit.record(AuditEvent.of(AuditKind.POLICY, "create").by(caller).org(scope.orgId())
                .project(scope.projectId()).target(id.toString()).details(Map.of("name", name)).build());
        changed(scope, id);
        return get(scope, id);
    }

    public List<StoredPolicy> list(Grant scope) {
        return jdbc.query("SELECT " + COLUMNS + " FROM policies WHERE org_id = ? AND project_id IS NOT DISTINCT FROM ?"
                + " ORDER BY created_at, id", Arrays.asList(scope.orgId(), scope.projectId()), this::row);
    }

    /** The policy of this scope with that id; another scope's policy is not found. */
    public StoredPolicy get(Grant scope, UUID id) {
        return jdbc.first("SELECT " + COLUMNS + " FROM policies WHERE org_id = ? AND project_id IS NOT DISTINCT FROM ?"
                + " AND id = ?", Arrays.asList(scope.orgId(), scope.projectId(), id), this::row)
                .orElseThrow(() -> ApiProblem.notFound("policy `" + id + "`"));
    }

    /** Applies a standalone update (the core's semantics); an invalid result changes nothing. */
    @Transactional
    public StoredPolicy update(Identity caller, Grant scope, UUID id, String text) {
        StoredPolicy before = get(scope, id);
        JsonNode after = PolicyChecks.update(before.policy(), text);
        String name = after.path("name").asText();
        refuseTakenName(scope, name, id);
        jdbc.prepare("UPDATE policies SET name = ?, document = ?::jsonb, source = ?, updated_at = now() WHERE id = ?",
                ps -> {
                    ps.setString(1, name);
                    ps.setString(2, after.toString());
                    ps.setString(3, pretty(after));
                    ps.setObject(4, id, Types.OTHER);
                    return write(ps, scope, name);
                });
        audit.record(AuditEvent.of(AuditKind.POLICY, "update").by(caller).org(scope.orgId())
                .project(scope.projectId()).target(id.toString()).details(Map.of("name", name)).build());
        changed(scope, id);
        return get(scope, id);
    }

    @Transactional
    public void delete(Identity caller, Grant scope, UUID id) {
        StoredPolicy p = get(scope, id);
        jdbc.update("DELETE FROM policies WHERE id = ?", List.of(id));
        audit.record(AuditEvent.of(AuditKind.POLICY, "delete").by(caller).org(scope.orgId())
                .project(scope.projectId()).target(id.toString()).details(Map.of("name", p.name())).build());
        changed(scope, id);
    }

    /** A policy change reaches every sandbox and identity it is attached or bound to: one governance event. */
    private void changed(Grant scope, UUID policyId) {
        Map<String, Object> payload = new java.util.HashMap<>();
        payload.put("kind", "policy");
        payload.put("policyId", policyId.toString());
        if (scope.projectId() != null) {
            payload.put("projectId", scope.projectId().toString());
        }
        events.publish(Topic.GOVERNANCE, scope.orgId(), payload);
    }

    private void refuseTakenName(Grant scope, String name, UUID self) {
        boolean taken = jdbc.exists("SELECT 1 FROM policies WHERE org_id = ? AND project_id IS NOT DISTINCT FROM ?"
                + " AND name = ? AND id IS DISTINCT FROM ?",
                Arrays.asList(scope.orgId(), scope.projectId(), name, self));
        if (taken) {
            throw nameTaken(scope, name);
        }
    }

    private static ApiProblem nameTaken(Grant scope, String name) {
        return new ApiProblem(ProblemCode.CONFLICT, (scope.projectId() == null ? "the organization" : "the project")
                + " already has a policy named `" + name + "`");
    }

    /** Runs a write; a concurrent writer that took the name first (unique index) is the same 409 as the check. */
    private static int write(PreparedStatement ps, Grant scope, String name) throws SQLException {
        try {
            return ps.executeUpdate();
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                throw nameTaken(scope, name);
            }
            throw e;
        }
    }

    private static void bindScope(PreparedStatement ps, int first, Grant scope) throws SQLException {
        ps.setObject(first, scope.orgId(), Types.OTHER);
        ps.setObject(first + 1, scope.projectId(), Types.OTHER);
    }

    private StoredPolicy row(ResultSet rs) throws SQLException {
        return new StoredPolicy(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getString(4), parse(rs.getString(5)), rs.getTimestamp(6).toInstant(),
                rs.getTimestamp(7).toInstant());
    }

    private JsonNode parse(String json) {
        try {
            return mapper.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String pretty(JsonNode tree) {
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
