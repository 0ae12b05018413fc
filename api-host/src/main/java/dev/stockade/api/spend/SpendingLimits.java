package dev.stockade.api.spend;

import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.policy.compiler.SpendPeriod;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Spending limits of an organization, its projects and their sandboxes: set (replacing), deleted, each audited, and
 * read with the spend counted in their current period. Who may set which is the action table's business; this
 * service checks that the project or sandbox belongs to the organization (404 otherwise, like any foreign id).
 */
@Singleton
public class SpendingLimits {
    private static final String STATES = "SELECT l.scope, l.org_id, l.project_id, l.sandbox_id, l.period,"
            + " l.amount_micros, COALESCE(c.cost_micros, 0), l.updated_at, l.updated_by FROM spending_limits l"
            + " LEFT JOIN spend_counters c ON c.scope = l.scope AND c.target_id = l.target_id AND c.period = l.period"
            + " AND c.period_start = CASE l.period WHEN 'day' THEN ?::timestamptz ELSE ?::timestamptz END"
            + " WHERE l.org_id = ?";
    private static final String ORDER = " ORDER BY array_position(ARRAY['org', 'project', 'sandbox'], l.scope),"
            + " l.project_id, l.sandbox_id";

    private final Sql jdbc;
    private final AuditLog audit;
    private final Clock clock;

    public SpendingLimits(Sql jdbc, AuditLog audit, Clock clock) {
        this.jdbc = jdbc;
        this.audit = audit;
        this.clock = clock;
    }

    /** Every limit of the organization with its spend at {@code now}: organization, then projects, then sandboxes. */
    public List<LimitState> all(UUID orgId, Instant now) {
        return jdbc.query(STATES + ORDER, args(now, orgId), row(now));
    }

    /** The limits that apply to a call by {@code sandboxId} (null: no sandbox) of the project, at {@code now}. */
    public List<LimitState> applicable(UUID orgId, UUID projectId, @Nullable UUID sandboxId, Instant now) {
        List<Object> args = args(now, orgId);
        args.addAll(Arrays.asList(projectId, sandboxId));
        return jdbc.query(STATES + " AND (l.scope = 'org' OR l.scope = 'project' AND l.target_id = ?"
                + " OR l.scope = 'sandbox' AND l.target_id = ?::uuid)" + ORDER, args, row(now));
    }

    /** Sets (or replaces) the limit on {@code target}; returns it with its current spend. */
    @Transactional
    public LimitState set(Identity caller, UUID orgId, LimitTarget target, long amountMicros, SpendPeriod period) {
        requireTarget(orgId, target);
        jdbc.update("INSERT INTO spending_limits (org_id, scope, target_id, project_id, sandbox_id, amount_micros,"
                + " period, updated_by) VALUES (?, ?, ?, ?::uuid, ?::uuid, ?, ?, ?) ON CONFLICT (scope, target_id)"
                + " DO UPDATE SET amount_micros = EXCLUDED.amount_micros, period = EXCLUDED.period,"
                + " updated_at = now(), updated_by = EXCLUDED.updated_by", Arrays.asList(orgId, target.scope(),
                target.id(orgId), target.projectId(), target.sandboxId(), amountMicros, period.wire(),
                caller.type() + ":" + caller.actorId()));
        audit.record(AuditEvent.of(AuditKind.SPENDING_LIMIT, "set").by(caller).org(orgId).project(target.projectId())
                .target(target.id(orgId).toString())
                .details(Map.of("scope", target.scope(), "amountUsd", Money.usd(amountMicros), "period", period.wire()))
                .build());
        return find(orgId, target, clock.instant());
    }

    /** Deletes the limit on {@code target}; 404 when there is none. */
    @Transactional
    public void delete(Identity caller, UUID orgId, LimitTarget target) {
        requireTarget(orgId, target);
        int n = jdbc.update("DELETE FROM spending_limits WHERE org_id = ? AND scope = ? AND target_id = ?",
                List.of(orgId, target.scope(), target.id(orgId)));
        if (n == 0) {
            throw ApiProblem.notFound("spending limit of " + target.describe(orgId));
        }
        audit.record(AuditEvent.of(AuditKind.SPENDING_LIMIT, "delete").by(caller).org(orgId)
                .project(target.projectId()).target(target.id(orgId).toString())
                .details(Map.of("scope", target.scope())).build());
    }

    /** The limit on {@code target} with its spend at {@code now}; 404 when there is none. */
    public LimitState find(UUID orgId, LimitTarget target, Instant now) {
        List<Object> args = args(now, orgId);
        args.addAll(List.of(target.scope(), target.id(orgId)));
        return jdbc.query(STATES + " AND l.scope = ? AND l.target_id = ?", args, row(now)).stream().findFirst()
                .orElseThrow(() -> ApiProblem.notFound("spending limit of " + target.describe(orgId)));
    }

    /** The spend of an organization, project or sandbox counted toward limits in the period holding {@code now}. */
    public long counted(String scope, UUID targetId, SpendPeriod period, Instant now) {
        return jdbc.query("SELECT cost_micros FROM spend_counters WHERE scope = ? AND target_id = ? AND period = ?"
                + " AND period_start = ?", List.of(scope, targetId, period.wire(), period.start(now)),
                rs -> rs.getLong(1)).stream().findFirst().orElse(0L);
    }

    /** A project or sandbox of another organization (or none) is not found, exactly like an unknown id. */
    private void requireTarget(UUID orgId, LimitTarget target) {
        boolean found = switch (target.scope()) {
            case "project" -> !jdbc.query("SELECT 1 FROM projects WHERE id = ? AND org_id = ?",
                    List.of(target.projectId(), orgId), rs -> 1).isEmpty();
            case "sandbox" -> !jdbc.query("SELECT 1 FROM sandboxes WHERE id = ? AND project_id = ? AND org_id = ?",
                    List.of(target.sandboxId(), target.projectId(), orgId), rs -> 1).isEmpty();
            default -> true;
        };
        if (!found) {
            throw ApiProblem.notFound(target.describe(orgId));
        }
    }

    private static List<Object> args(Instant now, UUID orgId) {
        return new ArrayList<>(List.of(SpendPeriod.DAY.start(now), SpendPeriod.MONTH.start(now), orgId));
    }

    private static Sql.Row<LimitState> row(Instant now) {
        return rs -> state(rs, now);
    }

    /** Reads the nine columns every limit query starts with (see {@code STATES}). */
    static LimitState state(ResultSet rs, Instant now) throws SQLException {
        SpendPeriod period = SpendPeriod.of(rs.getString(5)).orElseThrow();
        return new LimitState(rs.getString(1), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getObject(4, UUID.class), period, rs.getLong(6), rs.getLong(7), period.start(now),
                rs.getTimestamp(8).toInstant(), rs.getString(9));
    }
}
