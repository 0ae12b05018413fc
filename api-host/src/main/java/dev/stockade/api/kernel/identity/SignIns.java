package dev.stockade.api.kernel.identity;

import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Records a person's sign-in: the user row (created on first sign-in, name and email refreshed later) and one audit
 * entry in each organization the person belongs to (an installation-wide entry when none).
 */
@Singleton
public class SignIns {
    private static final String UPSERT = "INSERT INTO users (id, issuer, subject, email, name) VALUES (?, ?, ?, ?, ?)"
            + " ON CONFLICT (issuer, subject) DO UPDATE SET email = EXCLUDED.email, name = EXCLUDED.name"
            + " RETURNING id, issuer, subject, email, name, created_at";

    private final Sql jdbc;
    private final AuditLog audit;

    public SignIns(Sql jdbc, AuditLog audit) {
        this.jdbc = jdbc;
        this.audit = audit;
    }

    @Transactional
    public UserRow signIn(String issuer, String subject, String email, String name) {
        UserRow user = jdbc.first(UPSERT, Arrays.asList(UUID.randomUUID(), issuer, subject, email, name),
                rs -> new UserRow(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getTimestamp(6).toInstant())).orElseThrow();
        List<UUID> orgs = jdbc.query("SELECT org_id FROM org_members WHERE user_id = ?", List.of(user.id()),
                rs -> rs.getObject(1, UUID.class));
        if (orgs.isEmpty()) {
            orgs = new ArrayList<>();
            orgs.add(null);
        }
        for (UUID org : orgs) {
            audit.record(AuditEvent.of(AuditKind.SESSION, "sign-in").org(org)
                    .by(Actor.of("user", user.id().toString())).target(user.id().toString())
                    .details(Map.of("issuer", issuer)).build());
        }
        return user;
    }
}
