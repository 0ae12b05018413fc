package dev.stockade.api.credentials;

import dev.stockade.api.enforcement.CredentialMaterials;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Egress credentials of a project, and those a sandbox owns (created and deleted with it). The secret is sealed with
 * the installation's envelope key ({@link SecretBox}, the credential id as associated data) and leaves this class in
 * clear only through {@link #reveal} (the proxy feed). Attaching a credential never allows a domain: the policy must.
 * Audited under kind {@code credential} (name and domains only); each change publishes a {@code governance} event.
 */
@Singleton
public class CredentialService implements CredentialMaterials {
    /** A credential without its secret. */
    public record Credential(UUID id, UUID orgId, UUID projectId, UUID sandboxId, String name, List<String> domains,
                             String headerFormat, Instant createdAt, Instant updatedAt) {
    }

    private static final String COLUMNS = "id, org_id, project_id, sandbox_id, name, domains, header_format,"
            + " created_at, updated_at";

    private final Sql jdbc;
    private final SecretBox box;
    private final AuditLog audit;
    private final Events events;

    public CredentialService(Sql jdbc, SecretBox box, AuditLog audit, Events events) {
        this.jdbc = jdbc;
        this.box = box;
        this.audit = audit;
        this.events = events;
    }

    /** A project credential. */
    @Transactional
    public Credential create(Identity caller, Grant scope, CredentialInput in) {
        return insert(caller, scope.orgId(), scope.projectId(), null, in);
    }

    /** A credential owned by a sandbox: deleted by {@link #deleteOwnedBy}. */
    @Transactional
    public Credential createForSandbox(Identity caller, UUID orgId, UUID projectId, UUID sandboxId,
                                       CredentialInput in) {
        return insert(caller, orgId, projectId, sandboxId, in);
    }

    public List<Credential> list(Grant scope) {
        return jdbc.query("SELECT " + COLUMNS + " FROM credentials WHERE project_id = ? ORDER BY name",
                List.of(scope.projectId()), CredentialService::row);
    }

    public Credential get(Grant scope, UUID id) {
        return find(scope.projectId(), id).orElseThrow(() -> ApiProblem.notFound("credential `" + id + "`"));
    }

    /** Rotates the secret and/or changes domains or header format; the name stays. */
    @Transactional
    public Credential update(Identity caller, Grant scope, UUID id, CredentialInput in) {
        in.checkUpdate();
        Credential before = get(scope, id);
        jdbc.prepare("UPDATE credentials SET domains = COALESCE(?, domains), header_format = CASE WHEN ? THEN ?"
                + " ELSE header_format END, sealed_secret = COALESCE(?, sealed_secret), updated_at = now()"
                + " WHERE id = ?", ps -> {
                    ps.setArray(1, in.domains() == null ? null
                            : ps.getConnection().createArrayOf("text", in.domains().toArray()));
                    ps.setBoolean(2, in.headerFormat() != null);
                    ps.setString(3, in.headerFormat());
                    ps.setString(4, in.secret() == null ? null : box.seal(in.secret(), context(id)));
                    ps.setObject(5, id, Types.OTHER);
                    return ps.executeUpdate();
                });
        Map<String, Object> details = new HashMap<>();
        details.put("name", before.name());
        details.put("secretRotated", in.secret() != null);
        if (in.domains() != null) {
            details.put("domains", in.domains());
        }
        audit.record(AuditEvent.of(AuditKind.CREDENTIAL, "update").by(caller).org(scope.orgId())
                .project(scope.projectId()).target(id.toString()).details(details).build());
        changed(scope.orgId(), scope.projectId(), id);
        return get(scope, id);
    }

    @Transactional
    public void delete(Identity caller, Grant scope, UUID id) {
        Credential c = get(scope, id);
        if (c.sandboxId() != null) {
            throw new ApiProblem(ProblemCode.CONFLICT, "credential `" + c.name() + "` belongs to sandbox `"
                    + c.sandboxId() + "` and is deleted with it");
        }
        jdbc.update("DELETE FROM credentials WHERE id = ?", List.of(id));
        audit.record(AuditEvent.of(AuditKind.CREDENTIAL, "delete").by(caller).org(scope.orgId())
                .project(scope.projectId()).target(id.toString()).details(Map.of("name", c.name())).build());
        changed(scope.orgId(), scope.projectId(), id);
    }

    /** Deletes the credentials a sandbox owns (on the caller's transaction, with the sandbox). */
    public int deleteOwnedBy(UUID sandboxId) {
        return jdbc.update("DELETE FROM credentials WHERE sandbox_id = ?", List.of(sandboxId));
    }

    /** Credentials of the project by name, project-owned and those {@code sandboxId} owns (null: project only). */
    public List<Credential> visibleTo(UUID projectId, UUID sandboxId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM credentials WHERE project_id = ? AND (sandbox_id IS NULL"
                + " OR sandbox_id = ?) ORDER BY name", Arrays.asList(projectId, sandboxId), CredentialService::row);
    }

    /** The ids of the credentials each of these sandboxes owns, by sandbox, in name order (one query). */
    public java.util.Map<UUID, List<UUID>> ownedBy(List<UUID> sandboxIds) {
        if (sandboxIds.isEmpty()) {
            return new java.util.HashMap<>();
        }
        return jdbc.query("SELECT sandbox_id, id FROM credentials WHERE sandbox_id = ANY(?) ORDER BY name",
                List.of((Object) sandboxIds.toArray(UUID[]::new)),
                rs -> Map.entry(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class))).stream()
                .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue,
                        Collectors.toList())));
    }

    @Override
    public List<Material> reveal(List<UUID> ids) {
        List<Material> out = new ArrayList<>();
        for (UUID id : ids) {
            jdbc.first("SELECT name, domains, header_format, sealed_secret FROM credentials WHERE id = ?", List.of(id),
                    rs -> new Material(id, rs.getString(1), texts(rs.getArray(2)), rs.getString(3),
                            box.open(rs.getString(4), context(id)))).ifPresent(out::add);
        }
        return out;
    }

    private Credential insert(Identity caller, UUID orgId, UUID projectId, UUID sandboxId, CredentialInput in) {
        in.checkCreate();
        UUID id = UUID.randomUUID();
        jdbc.prepare("INSERT INTO credentials (id, org_id, project_id, sandbox_id, name, domains, header_format,"
                + " sealed_secret, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", ps -> {
                    ps.setObject(1, id, Types.OTHER);
                    ps.setObject(2, orgId, Types.OTHER);
                    ps.setObject(3, projectId, Types.OTHER);
                    ps.setObject(4, sandboxId, Types.OTHER);
                    ps.setString(5, in.name());
                    ps.setArray(6, ps.getConnection().createArrayOf("text", in.domains().toArray()));
                    ps.setString(7, in.headerFormat());
                    ps.setString(8, box.seal(in.secret(), context(id)));
                    ps.setString(9, caller.type() + ":" + caller.actorId());
                    try {
                        return ps.executeUpdate();
                    } catch (SQLException e) {
                        if ("23505".equals(e.getSQLState())) {
                            throw new ApiProblem(ProblemCode.CONFLICT, "the project already has a credential named `"
                                    + in.name() + "`");
                        }
                        throw new SQLException("storing a credential failed (SQLSTATE " + e.getSQLState() + ")");
                    }
                });
        Map<String, Object> details = new HashMap<>();
        details.put("name", in.name());
        details.put("domains", in.domains());
        if (sandboxId != null) {
            details.put("sandboxId", sandboxId.toString());
        }
        audit.record(AuditEvent.of(AuditKind.CREDENTIAL, "create").by(caller).org(orgId).project(projectId)
                .target(id.toString()).details(details).build());
        changed(orgId, projectId, id);
        return find(projectId, id).orElseThrow();
    }

    private void changed(UUID orgId, UUID projectId, UUID credentialId) {
        events.publish(Topic.GOVERNANCE, orgId, Map.of("kind", "credential", "projectId", projectId.toString(),
                "credentialId", credentialId.toString()));
    }

    private static String context(UUID id) {
        return "credential:" + id;
    }

    private Optional<Credential> find(UUID projectId, UUID id) {
        return jdbc.first("SELECT " + COLUMNS + " FROM credentials WHERE project_id = ? AND id = ?",
                List.of(projectId, id), CredentialService::row);
    }

    private static Credential row(ResultSet rs) throws SQLException {
        return new Credential(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getObject(4, UUID.class), rs.getString(5), texts(rs.getArray(6)), rs.getString(7),
                rs.getTimestamp(8).toInstant(), rs.getTimestamp(9).toInstant());
    }

    private static List<String> texts(Array array) throws SQLException {
        return array == null ? List.of() : List.of((String[]) array.getArray());
    }
}
