package dev.stockade.api.halt;

import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.tenancy.Organization;
import dev.stockade.api.tenancy.OrganizationRepository;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The organization-wide emergency halt: persisted on the organization's row, audited, and published as a
 * {@code halt} event in the same transaction, which the proxy feed, inference and connectors act on.
 */
@Singleton
public class HaltService {
    /** The halt state of an organization. */
    @Introspected
    public record HaltState(boolean halted, @Nullable Instant haltedAt, @Nullable String haltedBy) {
    }

    private final OrganizationRepository orgs;
    private final Sql jdbc;
    private final AuditLog audit;
    private final Events events;

    public HaltService(OrganizationRepository orgs, Sql jdbc, AuditLog audit, Events events) {
        this.orgs = orgs;
        this.jdbc = jdbc;
        this.audit = audit;
        this.events = events;
    }

    public HaltState get(UUID orgId) {
        Organization o = orgs.findById(orgId).orElseThrow(() -> ApiProblem.notFound("organization `" + orgId + "`"));
        return new HaltState(o.halted(), o.haltedAt(), o.haltedBy());
    }

    @Transactional
    public HaltState set(Identity caller, UUID orgId, boolean halted) {
        jdbc.prepare(halted
                ? "UPDATE organizations SET halted = true, halted_at = COALESCE(halted_at, now()),"
                        + " halted_by = COALESCE(halted_by, ?) WHERE id = ?"
                : "UPDATE organizations SET halted = false, halted_at = NULL, halted_by = NULL WHERE id = ?"
                        + " AND ? IS NOT NULL", ps -> {
                    if (halted) {
                        ps.setString(1, caller.type() + ":" + caller.actorId());
                        ps.setObject(2, orgId, Types.OTHER);
                    } else {
                        ps.setObject(1, orgId, Types.OTHER);
                        ps.setString(2, caller.actorId());
                    }
                    return ps.executeUpdate();
                });
        audit.record(AuditEvent.of(AuditKind.HALT, halted ? "halt" : "lift").by(caller).org(orgId)
                .target(orgId.toString()).build());
        events.publish(Topic.HALT, orgId, Map.of("halted", halted));
        return get(orgId);
    }

    /** Every organization halted now (proxies start from this set, then follow {@code halt} events). */
    public java.util.Set<UUID> haltedOrgs() {
        return new java.util.HashSet<>(jdbc.query("SELECT id FROM organizations WHERE halted", List.of(),
                rs -> rs.getObject(1, UUID.class)));
    }
}
