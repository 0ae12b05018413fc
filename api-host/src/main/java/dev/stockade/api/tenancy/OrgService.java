package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Organizations and their members. Authorization happened before any method here runs (the access filter). */
@Singleton
public class OrgService {
    private final OrganizationRepository orgs;
    private final ProjectRepository projects;
    private final Sql jdbc;
    private final AuditLog audit;
    private final Events events;
    private final Clock clock;

    public OrgService(OrganizationRepository orgs, ProjectRepository projects, Sql jdbc, AuditLog audit,
                      Events events, Clock clock) {
        this.clock = clock;
        this.orgs = orgs;
        this.projects = projects;
        this.jdbc = jdbc;
        this.audit = audit;
        this.events = events;
    }

    /** Creates an organization; a person creating one becomes its first admin. */
    @Transactional
    public Organization create(Identity caller, String name) {
        Organization org = orgs.save(new Organization(UUID.randomUUID(), name.strip(), false, null, null, clock.instant()));
        if (caller instanceof Identity.User u) {
            setMember(caller, org.id(), u.userId(), "ADMIN");
        }
        audit.record(AuditEvent.of(AuditKind.ORGANIZATION, "create").by(caller).org(org.id())
                .target(org.id().toString()).details(Map.of("name", org.name())).build());
        return org;
    }

    public List<Organization> list(Identity caller) {
        if (caller instanceof Identity.Owner) {
            return orgs.findAllOrderByCreatedAt();
        }
        if (caller instanceof Identity.User u) {
            return orgs.findForUser(u.userId());
        }
        if (caller instanceof Identity.ApiToken t) {
            return orgs.findById(t.orgId()).map(List::of).orElse(List.of());
        }
        return List.of();
    }

    public Organization get(UUID orgId) {
        return orgs.findById(orgId).orElseThrow(() -> ApiProblem.notFound("organization `" + orgId + "`"));
    }

    @Transactional
    public Organization rename(Identity caller, UUID orgId, String name) {
        orgs.rename(orgId, name.strip());
        audit.record(AuditEvent.of(AuditKind.ORGANIZATION, "update").by(caller).org(orgId).target(orgId.toString())
                .details(Map.of("name", name.strip())).build());
        return get(orgId);
    }

    /** Erases an organization with everything in it, its audit trail included; refused while it has projects. */
    @Transactional
    public void delete(Identity caller, UUID orgId) {
        List<Project> left = projects.findByOrgIdOrderByCreatedAt(orgId);
        if (!left.isEmpty()) {
            List<FieldError> errors = new ArrayList<>();
            for (Project p : left) {
                errors.add(new FieldError("/projects/" + p.id(), "dependant", "project `" + p.name() + "` (" + p.id() + ")"));
            }
            throw new ApiProblem(ProblemCode.DEPENDANTS_EXIST, "delete the organization's " + left.size()
                    + " project(s) first: " + String.join(", ", left.stream().map(Project::name).toList()), errors);
        }
        orgs.deleteById(orgId);
    }

    public List<Views.MemberView> members(UUID orgId) {
        return jdbc.query("SELECT u.id, u.email, u.name, m.role FROM org_members m JOIN users u"
                + " ON u.id = m.user_id WHERE m.org_id = ? ORDER BY m.created_at", List.of(orgId),
                rs -> new Views.MemberView(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                        rs.getString(4)));
    }

    /** Adds or changes a member; the user must have signed in once. */
    @Transactional
    public void setMember(Identity caller, UUID orgId, UUID userId, String role) {
        if (!jdbc.exists("SELECT 1 FROM users WHERE id = ?", List.of(userId))) {
            throw ApiProblem.notFound("user `" + userId + "` (a person must sign in once, or accept an invitation)");
        }
        jdbc.update("INSERT INTO org_members (org_id, user_id, role) VALUES (?, ?, ?)"
                + " ON CONFLICT (org_id, user_id) DO UPDATE SET role = EXCLUDED.role", List.of(orgId, userId, role));
        audit.record(AuditEvent.of(AuditKind.ORG_MEMBER, "set").by(caller).org(orgId).target(userId.toString())
                .details(Map.of("role", role)).build());
        events.publish(Topic.ACCESS, orgId, Map.of("userId", userId.toString()));
    }

    @Transactional
    public void removeMember(Identity caller, UUID orgId, UUID userId) {
        if (jdbc.update("DELETE FROM org_members WHERE org_id = ? AND user_id = ?", List.of(orgId, userId)) == 0) {
            throw ApiProblem.notFound("member `" + userId + "`");
        }
        jdbc.update("DELETE FROM project_members WHERE principal_type = 'user' AND principal_id = ?"
                + " AND project_id IN (SELECT id FROM projects WHERE org_id = ?)", List.of(userId, orgId));
        audit.record(AuditEvent.of(AuditKind.ORG_MEMBER, "remove").by(caller).org(orgId).target(userId.toString())
                .build());
        events.publish(Topic.ACCESS, orgId, Map.of("userId", userId.toString()));
    }
}
