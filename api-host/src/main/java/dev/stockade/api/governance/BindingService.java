package dev.stockade.api.governance;

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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Policy bindings (spec "Scope, resolution and ceiling" 2): a policy reaches a user or an API token of the
 * organization. An org binding ({@code projectId == null}) binds an org policy in every project; a project binding
 * binds a policy of that project or an org policy, in that project only. Audited under kind {@code policy-binding};
 * each change publishes a {@code governance} event.
 */
@Singleton
public class BindingService {
    /** A subject kind: the two identities bindings reach. */
    public static final String USER = "user";
    public static final String API_TOKEN = "api-token";

    /** A stored binding. */
    public record Binding(UUID id, UUID orgId, UUID projectId, UUID policyId, String policyName, String subjectType,
                          UUID subjectId, String createdBy, Instant createdAt) {
    }

    private static final String SELECT = "SELECT b.id, b.org_id, b.project_id, b.policy_id, p.name, b.subject_type,"
            + " b.subject_id, b.created_by, b.created_at FROM policy_bindings b JOIN policies p ON p.id = b.policy_id";

    private final Sql jdbc;
    private final AuditLog audit;
    private final Events events;

    public BindingService(Sql jdbc, AuditLog audit, Events events) {
        this.jdbc = jdbc;
        this.audit = audit;
        this.events = events;
    }

    @Transactional
    public Binding create(Identity caller, Grant scope, UUID policyId, String subjectType, UUID subjectId) {
        requirePolicyInReach(scope, policyId);
        requireSubjectInOrg(scope.orgId(), subjectType, subjectId);
        UUID id = UUID.randomUUID();
        jdbc.prepare("INSERT INTO policy_bindings (id, org_id, project_id, policy_id, subject_type, subject_id,"
                + " created_by) VALUES (?, ?, ?, ?, ?, ?, ?)", ps -> {
                    ps.setObject(1, id, Types.OTHER);
                    ps.setObject(2, scope.orgId(), Types.OTHER);
                    ps.setObject(3, scope.projectId(), Types.OTHER);
                    ps.setObject(4, policyId, Types.OTHER);
                    ps.setString(5, subjectType);
                    ps.setObject(6, subjectId, Types.OTHER);
                    ps.setString(7, caller.type() + ":" + caller.actorId());
                    try {
                        return ps.executeUpdate();
                    } catch (SQLException e) {
                        if ("23505".equals(e.getSQLState())) {
                            throw new ApiProblem(ProblemCode.CONFLICT, "the policy is already bound to this "
                                    + subjectType + " here");
                        }
                        throw e;
                    }
                });
        audit.record(AuditEvent.of(AuditKind.POLICY_BINDING, "create").by(caller).org(scope.orgId())
                .project(scope.projectId()).target(id.toString())
                .details(Map.of("policyId", policyId.toString(), "subjectType", subjectType, "subjectId", subjectId.toString()))
                .build());
        changed(scope, "binding");
        return get(scope, id);
    }

    public List<Binding> list(Grant scope) {
        return jdbc.query(SELECT + " WHERE b.org_id = ? AND b.project_id IS NOT DISTINCT FROM ? ORDER BY b.created_at,"
                + " b.id", Arrays.asList(scope.orgId(), scope.projectId()), BindingService::row);
    }

    public Binding get(Grant scope, UUID id) {
        return jdbc.first(SELECT + " WHERE b.org_id = ? AND b.project_id IS NOT DISTINCT FROM ? AND b.id = ?",
                Arrays.asList(scope.orgId(), scope.projectId(), id), BindingService::row)
                .orElseThrow(() -> ApiProblem.notFound("policy binding `" + id + "`"));
    }

    @Transactional
    public void delete(Identity caller, Grant scope, UUID id) {
        Binding b = get(scope, id);
        jdbc.update("DELETE FROM policy_bindings WHERE id = ?", List.of(id));
        audit.record(AuditEvent.of(AuditKind.POLICY_BINDING, "delete").by(caller).org(scope.orgId())
                .project(scope.projectId()).target(id.toString())
                .details(Map.of("policyId", b.policyId().toString(), "subjectType", b.subjectType(), "subjectId", b.subjectId().toString()))
                .build());
        changed(scope, "binding");
    }

    /** Every binding of the organization, org-level and project-level (for drift). */
    public List<Binding> allOfOrg(UUID orgId) {
        return jdbc.query(SELECT + " WHERE b.org_id = ? ORDER BY b.created_at, b.id", List.of(orgId),
                BindingService::row);
    }

    private void changed(Grant scope, String kind) {
        Map<String, Object> payload = new java.util.HashMap<>();
        payload.put("kind", kind);
        if (scope.projectId() != null) {
            payload.put("projectId", scope.projectId().toString());
        }
        events.publish(Topic.GOVERNANCE, scope.orgId(), payload);
    }

    /** An org binding takes an org policy; a project binding a policy of its project or of its organization. */
    private void requirePolicyInReach(Grant scope, UUID policyId) {
        boolean found = jdbc.exists("SELECT 1 FROM policies WHERE id = ? AND org_id = ? AND (project_id IS NULL"
                + " OR project_id = ?)", Arrays.asList(policyId, scope.orgId(), scope.projectId()));
        if (!found) {
            throw ApiProblem.invalid("/policyId", "unknown-policy", "no policy `" + policyId + "` "
                    + (scope.projectId() == null ? "in the organization" : "in the project or its organization"));
        }
    }

    private void requireSubjectInOrg(UUID orgId, String subjectType, UUID subjectId) {
        String check = subjectType.equals(USER)
                ? "SELECT 1 FROM org_members WHERE org_id = ? AND user_id = ?"
                : "SELECT 1 FROM api_tokens WHERE org_id = ? AND id = ? AND revoked_at IS NULL";
        boolean found = jdbc.exists(check, List.of(orgId, subjectId));
        if (!found) {
            String pointer = subjectType.equals(USER) ? "/userId" : "/apiTokenId";
            throw ApiProblem.invalid(pointer, "unknown-subject", (subjectType.equals(USER)
                    ? "no member `" : "no active API token `") + subjectId + "` in the organization");
        }
    }

    private static Binding row(ResultSet rs) throws SQLException {
        return new Binding(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getObject(4, UUID.class), rs.getString(5), rs.getString(6), rs.getObject(7, UUID.class),
                rs.getString(8), rs.getTimestamp(9).toInstant());
    }
}
