package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.ClusterTokens;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Projects, their members (people and API tokens, ADMIN or MEMBER) and their signing keys. */
@Singleton
public class ProjectService {
    private final ProjectRepository projects;
    private final ClusterTokens keys;
    private final Sql jdbc;
    private final AuditLog audit;
    private final Events events;
    private final Clock clock;

    public ProjectService(ProjectRepository projects, ClusterTokens keys, Sql jdbc, AuditLog audit, Events events,
                          Clock clock) {
        this.clock = clock;
        this.projects = projects;
        this.keys = keys;
        this.jdbc = jdbc;
        this.audit = audit;
        this.events = events;
    }

    @Transactional
    public Project create(Identity caller, UUID orgId, Requests.CreateProject body) {
        if (projects.existsByOrgIdAndName(orgId, body.name().strip())) {
            throw new ApiProblem(ProblemCode.CONFLICT, "the organization already has a project named `"
                    + body.name().strip() + "`");
        }
        Project p = projects.save(new Project(UUID.randomUUID(), orgId, body.name().strip(),
                body.description() == null ? "" : body.description(), clock.instant()));
        keys.rotate(p.id());
        audit.record(AuditEvent.of(AuditKind.PROJECT, "create").by(caller).org(orgId).project(p.id())
                .target(p.id().toString()).details(Map.of("name", p.name())).build());
        return p;
    }

    /** The organization's projects: all of them for org admins and members, only their own for API tokens. */
    public List<Project> list(Identity caller, Grant grant) {
        if (caller instanceof Identity.ApiToken t) {
            return projects.findForMember(grant.orgId(), "api-token", t.tokenId());
        }
        return projects.findByOrgIdOrderByCreatedAt(grant.orgId());
    }

    public Project get(UUID projectId) {
        return projects.findById(projectId).orElseThrow(() -> ApiProblem.notFound("project `" + projectId + "`"));
    }

    @Transactional
    public Project update(Identity caller, Grant grant, Requests.UpdateProject body) {
        Project p = get(grant.projectId());
        String name = body.name() == null ? p.name() : body.name().strip();
        if (!name.equals(p.name()) && projects.existsByOrgIdAndName(p.orgId(), name)) {
            throw new ApiProblem(ProblemCode.CONFLICT, "the organization already has a project named `" + name + "`");
        }
        Project updated = projects.update(new Project(p.id(), p.orgId(), name,
                body.description() == null ? p.description() : body.description(), p.createdAt()));
        audit.record(AuditEvent.of(AuditKind.PROJECT, "update").by(caller).org(p.orgId()).project(p.id())
                .target(p.id().toString()).details(Map.of("name", name)).build());
        return updated;
    }

    /** Deletes a project; its audit history stays (entries keep the project id). */
    @Transactional
    public void delete(Identity caller, Grant grant) {
        projects.deleteById(grant.projectId());
        keys.forgetProject(grant.projectId());
        audit.record(AuditEvent.of(AuditKind.PROJECT, "delete").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(grant.projectId().toString()).build());
    }

    @Transactional
    public String rotateKeys(Identity caller, Grant grant) {
        String kid = keys.rotate(grant.projectId());
        audit.record(AuditEvent.of(AuditKind.PROJECT_KEY, "rotate").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(kid).build());
        return kid;
    }

    public List<Views.ProjectMemberView> members(UUID projectId) {
        return jdbc.query("SELECT m.principal_type, m.principal_id, COALESCE(u.email, t.name), m.role"
                + " FROM project_members m LEFT JOIN users u ON m.principal_type = 'user' AND u.id = m.principal_id"
                + " LEFT JOIN api_tokens t ON m.principal_type = 'api-token' AND t.id = m.principal_id"
                + " WHERE m.project_id = ? ORDER BY m.created_at", List.of(projectId),
                rs -> new Views.ProjectMemberView(rs.getString(1), rs.getObject(2, UUID.class), rs.getString(3),
                        rs.getString(4)));
    }

    /**
     * Grants a project role to an org member or an API token of the same organization (audited under kind
     * {@code project-member}).
     */
    @Transactional
    public void setMember(Identity caller, Grant grant, String principalType, UUID principalId, String role) {
        String check = principalType.equals("user")
                ? "SELECT 1 FROM org_members WHERE org_id = ? AND user_id = ?"
                : "SELECT 1 FROM api_tokens WHERE org_id = ? AND id = ? AND revoked_at IS NULL";
        if (!jdbc.exists(check, List.of(grant.orgId(), principalId))) {
            throw ApiProblem.notFound((principalType.equals("user") ? "org member `" : "API token `") + principalId + "`");
        }
        jdbc.update("INSERT INTO project_members (project_id, principal_type, principal_id, role)"
                + " VALUES (?, ?, ?, ?) ON CONFLICT (project_id, principal_type, principal_id)"
                + " DO UPDATE SET role = EXCLUDED.role", List.of(grant.projectId(), principalType, principalId, role));
        Map<String, Object> details = new HashMap<>();
        details.put("principalType", principalType);
        details.put("role", role);
        audit.record(AuditEvent.of(AuditKind.PROJECT_MEMBER, "set").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(principalId.toString()).details(details).build());
        events.publish(Topic.ACCESS, grant.orgId(), Map.of("projectId", grant.projectId().toString()));
    }

    @Transactional
    public void removeMember(Identity caller, Grant grant, String principalType, UUID principalId) {
        int n = jdbc.update("DELETE FROM project_members WHERE project_id = ? AND principal_type = ?"
                + " AND principal_id = ?", List.of(grant.projectId(), principalType, principalId));
        if (n == 0) {
            throw ApiProblem.notFound("project member `" + principalId + "`");
        }
        audit.record(AuditEvent.of(AuditKind.PROJECT_MEMBER, "remove").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(principalId.toString())
                .details(Map.of("principalType", principalType)).build());
        events.publish(Topic.ACCESS, grant.orgId(), Map.of("projectId", grant.projectId().toString()));
    }
}
