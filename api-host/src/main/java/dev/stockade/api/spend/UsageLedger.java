package dev.stockade.api.spend;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.model.Provider;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The usage ledger: one row per metered model call, the write the inference proxy makes after each call. A row and
 * the spend counters it moves ({@code spend_counters}, what {@link SpendAdmission} reads) are written in one
 * transaction, committed before {@link #record} returns.
 */
@Singleton
public class UsageLedger {
    /**
     * One call as the proxy saw it.
     *
     * @param sandboxId  null for a caller that is not a sandbox (an API token through the project's route)
     * @param tokens     its priced buckets; {@link TokenBuckets#NONE} when unknown or unmetered
     * @param costMicros null when the service has no price, or a litellm call reported no cost: it counts zero
     * @param metered    false for a direct provider call that bypassed the proxy: flagged, never counted toward limits
     * @param occurredAt null: now
     */
    public record Usage(UUID orgId, UUID projectId, @Nullable UUID sandboxId, Provider provider, String model,
                        TokenBuckets tokens, @Nullable Long costMicros, boolean metered,
                        @Nullable Instant occurredAt) {
        public Usage {
            Objects.requireNonNull(orgId, "orgId");
            Objects.requireNonNull(projectId, "projectId");
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(tokens, "tokens");
            if (model == null || model.isBlank() || model.length() > 200) {
                throw new IllegalArgumentException("model must be 1 to 200 characters");
            }
            if (costMicros != null && costMicros < 0) {
                throw new IllegalArgumentException("cost must not be negative");
            }
        }

        /** A call with plain input and output tokens, no breakdown. */
        public Usage(UUID orgId, UUID projectId, @Nullable UUID sandboxId, Provider provider, String model,
                     long inputTokens, long outputTokens, @Nullable Long costMicros, boolean metered,
                     @Nullable Instant occurredAt) {
            this(orgId, projectId, sandboxId, provider, model, TokenBuckets.of(inputTokens, outputTokens), costMicros,
                    metered, occurredAt);
        }

        /** The micro-USD this call counts toward limits. */
        long counted() {
            return metered && costMicros != null ? costMicros : 0;
        }
    }

    private static final String INSERT = "INSERT INTO usage_ledger (org_id, project_id, sandbox_id, provider, model, "
            + String.join(", ", TokenBuckets.COLUMNS) + ", cost_micros, metered, occurred_at)"
            + " SELECT org_id, id, ?::uuid, ?, ?, " + "?, ".repeat(TokenBuckets.COLUMNS.size())
            + "?::bigint, ?, ? FROM projects WHERE id = ? AND org_id = ? RETURNING id";

    private final Sql jdbc;
    private final Clock clock;

    public UsageLedger(Sql jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Records one call durably and returns its ledger id; the project must belong to the organization. Called inside
     * a transaction of the caller's, it joins it (and is durable when that commits).
     */
    @Transactional
    public long record(Usage u) {
        Instant at = u.occurredAt() == null ? clock.instant() : u.occurredAt();
        List<Object> args = new ArrayList<>(Arrays.asList(u.sandboxId(), u.provider().wire(), u.model()));
        args.addAll(u.tokens().values());
        args.addAll(Arrays.asList(u.costMicros(), u.metered(), at, u.projectId(), u.orgId()));
        List<Long> id = jdbc.query(INSERT, args, rs -> rs.getLong(1));
        if (id.isEmpty()) {
            throw new IllegalArgumentException("project " + u.projectId() + " is not a project of " + u.orgId());
        }
        if (u.counted() > 0) {
            count(u, at);
        }
        return id.get(0);
    }

    /** Adds the call's cost to the counters of its organization, project and sandbox, for each period. */
    private void count(Usage u, Instant at) {
        StringBuilder sql = new StringBuilder("INSERT INTO spend_counters (org_id, scope, target_id, period,"
                + " period_start, cost_micros) VALUES ");
        List<Object> args = new ArrayList<>();
        String[] scopes = {"org", "project", "sandbox"};
        UUID[] targets = {u.orgId(), u.projectId(), u.sandboxId()};
        for (int i = 0; i < scopes.length; i++) {
            for (SpendPeriod p : SpendPeriod.values()) {
                if (targets[i] != null) {
                    sql.append(args.isEmpty() ? "" : ", ").append("(?, ?, ?, ?, ?, ?)");
                    args.addAll(List.of(u.orgId(), scopes[i], targets[i], p.wire(), p.start(at), u.counted()));
                }
            }
        }
        // INVARIANT: rows in one fixed order (org, project, sandbox; day, month), so concurrent writers never deadlock
        jdbc.update(sql + " ON CONFLICT (scope, target_id, period, period_start)"
                + " DO UPDATE SET cost_micros = spend_counters.cost_micros + EXCLUDED.cost_micros", args);
    }
}
