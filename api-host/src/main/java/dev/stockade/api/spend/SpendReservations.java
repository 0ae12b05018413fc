package dev.stockade.api.spend;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.policy.compiler.HeldSpend;
import dev.stockade.policy.compiler.ReservationFit;
import dev.stockade.policy.compiler.ReservationRequest;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.compiler.SpendScope;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Admission without overshoot: reserve a call's largest possible cost before forwarding it, settle to its metered
 * cost when it ends, release when it failed. Whether a call fits is the core's {@link ReservationFit#judge}; this
 * class locks, reads and holds. Concurrent reservations for one limit queue on that limit's row lock
 * and each one reads the holds committed before it, so calls that all saw the same remainder can no longer all spend
 * it; the database is the only shared state, so this holds across replicas. Callers under different limits never
 * wait for each other (no global lock).
 */
@Singleton
public class SpendReservations {
    /** How long after it expired a hold is purged: until then a late settlement still finds it. */
    static final Duration PURGE_AFTER = Duration.ofDays(1);
    /** How often one replica purges an organization's long-expired holds. */
    static final Duration PURGE_EVERY = Duration.ofMinutes(1);

    private static final String ORDER = " ORDER BY array_position(ARRAY['org', 'project', 'sandbox'], l.scope)";
    private static final String APPLICABLE = " FROM spending_limits l WHERE l.org_id = ?"
            + " AND (l.scope, l.target_id) IN (('org', ?::uuid), ('project', ?::uuid), ('sandbox', ?::uuid))";
    // INVARIANT: limit rows are locked in one fixed order (org, project, sandbox), so reservations never deadlock
    private static final String LOCK = "SELECT l.scope" + APPLICABLE + ORDER + " FOR UPDATE OF l";
    /**
     * The hold: made only for a project of the organization, a sandbox of the project and an organization that is not
     * halted; the checks ride on the insert so that an admitted call costs no extra round trip.
     */
    private static final String HOLD = "INSERT INTO spend_reservations (id, org_id, project_id, sandbox_id,"
            + " held_micros, reserved_at, expires_at) SELECT ?, p.org_id, p.id, ?::uuid, ?, ?, ? FROM projects p"
            + " JOIN organizations o ON o.id = p.org_id AND NOT o.halted WHERE p.id = ? AND p.org_id = ?"
            + " AND (?::uuid IS NULL OR EXISTS (SELECT 1 FROM sandboxes s WHERE s.id = ?::uuid AND s.project_id = p.id))";
    private static final String HELD_ROW = "held";
    /**
     * The hold when no limit applies: one {@code held} row; else a row per applicable limit, and nothing held (no
     * row at all: nothing was held, see {@link #held}). Read without a lock: a limit created after this statement
     * began is judged by the reservations after it, as one created after the lock would be.
     */
    private static final String HOLD_UNLESS_LIMITED = "WITH applicable AS (SELECT l.scope" + APPLICABLE + "), held AS ("
            + HOLD + " AND NOT EXISTS (SELECT 1 FROM applicable) RETURNING id)"
            + " SELECT '" + HELD_ROW + "' FROM held UNION ALL SELECT scope FROM applicable";
    private static final String HELD = "(SELECT COALESCE(sum(held_micros), 0) FROM spend_reservations WHERE ";
    private static final String STANDING = "WITH held AS (SELECT " + HELD + "org_id = ? AND expires_at > ?) AS org, "
            + HELD + "project_id = ? AND expires_at > ?) AS project, "
            + HELD + "sandbox_id = ?::uuid AND expires_at > ?) AS sandbox)"
            + " SELECT l.scope, l.org_id, l.project_id, l.sandbox_id, l.period, l.amount_micros,"
            + " COALESCE(c.cost_micros, 0), l.updated_at, l.updated_by,"
            + " CASE l.scope WHEN 'org' THEN held.org WHEN 'project' THEN held.project ELSE held.sandbox END"
            + " FROM spending_limits l CROSS JOIN held LEFT JOIN spend_counters c ON c.scope = l.scope"
            + " AND c.target_id = l.target_id AND c.period = l.period"
            + " AND c.period_start = CASE l.period WHEN 'day' THEN ?::timestamptz ELSE ?::timestamptz END"
            + " WHERE l.org_id = ? AND (l.scope, l.target_id) IN (('org', ?::uuid), ('project', ?::uuid),"
            + " ('sandbox', ?::uuid))" + ORDER;

    private final Sql jdbc;
    private final TransactionOperations<Connection> transactions;
    private final UsageLedger ledger;
    private final Clock clock;
    private final Duration ttl;
    /** When this replica next purges each organization's long-expired holds (one entry per organization). */
    private final Map<UUID, Instant> nextPurge = new ConcurrentHashMap<>();

    public SpendReservations(Sql jdbc, TransactionOperations<Connection> transactions, UsageLedger ledger, Clock clock,
                             ReservationSettings settings) {
        this.jdbc = jdbc;
        this.transactions = transactions;

        this.ledger = ledger;
        this.clock = clock;
        this.ttl = settings.reservationTtl();
    }

    /**
     * Reserves {@code maxCostMicros} atomically against every limit that applies (the organization's, the project's
     * and, when {@code sandboxId} is not null, the sandbox's own cap), as the core's {@link ReservationFit#judge}
     * rules over their spend and live holds. A call that fits is held even under no limit or at cost zero, so that
     * settling is uniform. A hold is made only for a project of the organization and a sandbox of the project
     * (otherwise an error, nothing held), and never for a halted organization ({@link Reservation.Halted}).
     */
    public Reservation.Result reserve(UUID orgId, UUID projectId, @Nullable UUID sandboxId, long maxCostMicros) {
        Objects.requireNonNull(orgId, "orgId");
        Objects.requireNonNull(projectId, "projectId");
        if (maxCostMicros < 0 || maxCostMicros > Money.MAX_MICROS) {
            throw new IllegalArgumentException("a reservation's cost must be 0 to " + Money.MAX_MICROS
                    + " micro-USD, was " + maxCostMicros);
        }
        Instant now = clock.instant();
        Reservation r = new Reservation(UUID.randomUUID(), orgId, projectId, sandboxId, maxCostMicros, now.plus(ttl));
        if (!ReservationFit.dependsOnLimits(maxCostMicros)) {
            // an unpriced call fits whatever the limits hold: their rows are neither locked nor read
            return held(r, jdbc.update(HOLD, holdArgs(r, now)) > 0);
        }
        List<Object> ids = Arrays.asList(orgId, orgId, projectId, sandboxId);
        List<Object> args = new ArrayList<>(ids);
        args.addAll(holdArgs(r, now));
        // one statement, committed on its own, when no limit applies: the hold is made unless a limit exists
        List<String> limited = jdbc.query(HOLD_UNLESS_LIMITED, args, rs -> rs.getString(1));
        if (limited.isEmpty() || limited.contains(HELD_ROW)) {
            return held(r, !limited.isEmpty());
        }
        return transactions.executeWrite(status -> judged(r, ids, now));
    }

    /**
     * Locks the limits that apply, judges the call against their spend and live holds, and holds its budget if it
     * fits: one transaction, whose row locks serialize the reservations under one limit until it commits.
     */
    private Reservation.Result judged(Reservation r, List<Object> ids, Instant now) {
        List<String> locked = jdbc.query(LOCK, ids, rs -> rs.getString(1));
        // only the locked limits are judged: one created since the lock is judged by reservations after it
        List<HeldLimit> limits = locked.isEmpty() ? List.of()
                : standing(ids, now).stream().filter(l -> locked.contains(l.limit().scope())).toList();
        ReservationFit fit = ReservationFit.judge(new ReservationRequest(r.heldMicros(),
                limits.stream().map(HeldLimit::spend).toList()));
        if (!fit.fits()) {
            if (halted(r.orgId())) { // a halt answers before a budget does
                return new Reservation.Halted(r.orgId());
            }
            List<HeldSpend> refused = fit.refused().stream().map(ReservationFit.Shortfall::limit).toList();
            return Reservation.Refused.of(limits.stream().filter(l -> refused.contains(l.spend())).toList(),
                    r.heldMicros());
        }
        return held(r, jdbc.update(HOLD, holdArgs(r, now)) > 0);
    }

    /**
     * Writes the call's ledger row ({@link UsageLedger#record}) and removes its hold in one transaction; returns the
     * ledger id. The usage's cost is recorded as metered even when it is above the hold. A reservation settles once:
     * settling one already settled or released (or purged, a day after it expired) fails and writes nothing, so a
     * retried settlement never counts a call twice.
     */
    @Transactional
    public long settle(Reservation r, UsageLedger.Usage usage) {
        Objects.requireNonNull(r, "reservation");
        Objects.requireNonNull(usage, "usage");
        if (!r.orgId().equals(usage.orgId()) || !r.projectId().equals(usage.projectId())
                || !Objects.equals(r.sandboxId(), usage.sandboxId())) {
            throw new IllegalArgumentException("usage of another caller than reservation " + r.id()
                    + " cannot settle it");
        }
        int removed = jdbc.update("DELETE FROM spend_reservations WHERE id = ? AND org_id = ? AND project_id = ?",
                List.of(r.id(), r.orgId(), r.projectId()));
        if (removed == 0) {
            throw new IllegalStateException("reservation " + r.id() + " is not held: it was settled or released"
                    + " already, or expired more than " + PURGE_AFTER.toHours() + " hours ago");
        }
        // off the request path: holds that expired long ago go with the organization's settlements, at most once
        // per PURGE_EVERY and replica (a statement per settlement would be work for nothing)
        Instant now = clock.instant();
        if (!nextPurge.getOrDefault(r.orgId(), Instant.MIN).isAfter(now)) {
            nextPurge.put(r.orgId(), now.plus(PURGE_EVERY));
            jdbc.update("DELETE FROM spend_reservations WHERE org_id = ? AND expires_at < ?",
                    List.of(r.orgId(), now.minus(PURGE_AFTER)));
        }
        return ledger.record(usage);
    }

    /** Removes the hold with nothing spent (the upstream failed before any usage); releasing twice is harmless. */
    @Transactional
    public void release(Reservation r) {
        Objects.requireNonNull(r, "reservation");
        jdbc.update("DELETE FROM spend_reservations WHERE id = ? AND org_id = ?", List.of(r.id(), r.orgId()));
    }

    /** The budget held at {@code now} by live reservations of an organization, project or sandbox. */
    public long heldMicros(SpendScope scope, UUID targetId, Instant now) {
        String column = switch (scope) {
            case ORGANIZATION -> "org_id";
            case PROJECT -> "project_id";
            case SANDBOX -> "sandbox_id";
        };
        return jdbc.query(HELD + column + " = ? AND expires_at > ?)", List.of(targetId, now), rs -> rs.getLong(1))
                .get(0);
    }

    /** The budget held by live reservations of one organization, per organization, project and sandbox id. */
    public record Holds(Map<UUID, Long> byTarget) {
        public Holds {
            byTarget = Map.copyOf(byTarget);
        }

        /** What is held against the organization, project or sandbox that {@code limit} caps. */
        public long of(LimitState limit) {
            UUID target = limit.sandboxId() != null ? limit.sandboxId() : limit.projectId() != null
                    ? limit.projectId() : limit.orgId();
            return byTarget.getOrDefault(target, 0L);
        }
    }

    /** Every live hold of the organization at {@code now}, summed per organization, project and sandbox. */
    public Holds held(UUID orgId, Instant now) {
        Map<UUID, Long> sums = new HashMap<>();
        jdbc.query("WITH live AS (SELECT project_id, sandbox_id, held_micros FROM spend_reservations"
                + " WHERE org_id = ? AND expires_at > ?) SELECT ?::uuid, sum(held_micros) FROM live"
                + " UNION ALL SELECT project_id, sum(held_micros) FROM live GROUP BY project_id"
                + " UNION ALL SELECT sandbox_id, sum(held_micros) FROM live WHERE sandbox_id IS NOT NULL"
                + " GROUP BY sandbox_id", List.of(orgId, now, orgId), rs -> sums.put(rs.getObject(1, UUID.class),
                rs.getLong(2)));
        return new Holds(sums);
    }

    /**
     * The applicable limits with their counted spend and live holds. A statement of its own, run after the limit
     * rows are locked: under READ COMMITTED its snapshot then holds every reservation committed before the lock was
     * granted, and a settlement's counter update and hold removal are seen together or not at all.
     */
    private List<HeldLimit> standing(List<Object> ids, Instant now) {
        List<Object> args = new ArrayList<>(List.of(ids.get(0), now, ids.get(2), now));
        args.addAll(Arrays.asList(ids.get(3), now, SpendPeriod.DAY.start(now), SpendPeriod.MONTH.start(now)));
        args.addAll(ids);
        return jdbc.query(STANDING, args, rs -> new HeldLimit(SpendingLimits.state(rs, now), rs.getLong(10)));
    }

    private static List<Object> holdArgs(Reservation r, Instant now) {
        return Arrays.asList(r.id(), r.sandboxId(), r.heldMicros(), now, r.expiresAt(), r.projectId(), r.orgId(),
                r.sandboxId(), r.sandboxId());
    }

    /**
     * The answer once the hold's insert ran: reserved, or halted (the insert holds nothing for a halted organization),
     * or an error for a project of another organization or a sandbox of another project.
     */
    private Reservation.Result held(Reservation r, boolean inserted) {
        if (inserted) {
            return new Reservation.Reserved(r);
        }
        if (halted(r.orgId())) {
            return new Reservation.Halted(r.orgId());
        }
        throw new IllegalArgumentException(r.sandboxId() == null ? "project " + r.projectId() + " is not a project"
                + " of " + r.orgId() : "sandbox " + r.sandboxId() + " is not a sandbox of project " + r.projectId()
                + " of " + r.orgId());
    }

    /** Whether the organization is halted; read only on a path that refuses anyway. */
    private boolean halted(UUID orgId) {
        return jdbc.query("SELECT halted FROM organizations WHERE id = ?", List.of(orgId), rs -> rs.getBoolean(1))
                .contains(true);
    }
}
