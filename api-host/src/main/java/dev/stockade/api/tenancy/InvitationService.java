package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Invitations: an org admin invites an email address with a role; the person signs in through the identity provider
 * and accepts, which makes them an org member. Only a verified address matching the invitation may accept it.
 */
@Singleton
public class InvitationService {
    private static final String COLUMNS = "id, org_id, email, role, created_at, accepted_at";

    private final Sql sql;
    private final AuditLog audit;
    private final OrgService orgs;

    public InvitationService(Sql sql, AuditLog audit, OrgService orgs) {
        this.sql = sql;
        this.audit = audit;
        this.orgs = orgs;
    }

    @Transactional
    public Views.InvitationView create(Identity caller, UUID orgId, Requests.CreateInvitation body) {
        String email = body.email().strip().toLowerCase(Locale.ROOT);
        UUID id = UUID.randomUUID();
        int n = sql.update("INSERT INTO invitations (id, org_id, email, role, created_by) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (org_id, email) DO NOTHING", List.of(id, orgId, email, body.role().name(),
                caller.actorId()));
        if (n == 0) {
            throw new ApiProblem(ProblemCode.CONFLICT, "`" + email + "` is already invited to this organization");
        }
        audit.record(AuditEvent.of(AuditKind.INVITATION, "create").by(caller).org(orgId).target(id.toString())
                .details(Map.of("email", email, "role", body.role().name())).build());
        return find("id = ?", id).get(0);
    }

    public List<Views.InvitationView> listForOrg(UUID orgId) {
        return find("org_id = ?", orgId);
    }

    /** The open invitations addressed to the caller's verified email. */
    public List<Views.InvitationView> listMine(Identity.User user) {
        if (!user.emailVerified() || user.email() == null) {
            return List.of();
        }
        return find("lower(email) = ? AND accepted_at IS NULL", user.email().toLowerCase(Locale.ROOT));
    }

    @Transactional
    public void delete(Identity caller, UUID orgId, UUID id) {
        if (sql.update("DELETE FROM invitations WHERE id = ? AND org_id = ?", List.of(id, orgId)) == 0) {
            throw ApiProblem.notFound("invitation `" + id + "`");
        }
        audit.record(AuditEvent.of(AuditKind.INVITATION, "delete").by(caller).org(orgId).target(id.toString()).build());
    }

    /** Accepts an invitation addressed to the caller; anyone else's invitation is not found. */
    @Transactional
    public Views.InvitationView accept(Identity.User user, UUID id) {
        Views.InvitationView inv = listMine(user).stream().filter(i -> i.id().equals(id)).findFirst()
                .orElseThrow(() -> ApiProblem.notFound("invitation `" + id + "`"));
        sql.update("UPDATE invitations SET accepted_at = now() WHERE id = ?", List.of(id));
        orgs.setMember(user, inv.orgId(), user.userId(), inv.role());
        audit.record(AuditEvent.of(AuditKind.INVITATION, "accept").by(user).org(inv.orgId()).target(id.toString())
                .build());
        return find("id = ?", id).get(0);
    }

    private List<Views.InvitationView> find(String where, Object arg) {
        return sql.query("SELECT " + COLUMNS + " FROM invitations WHERE " + where + " ORDER BY created_at",
                List.of(arg), InvitationService::view);
    }

    private static Views.InvitationView view(ResultSet rs) throws SQLException {
        Timestamp accepted = rs.getTimestamp(6);
        return new Views.InvitationView(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                rs.getString(4), rs.getTimestamp(5).toInstant(), accepted == null ? null : accepted.toInstant());
    }
}
