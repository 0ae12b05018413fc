package dev.stockade.api.spend;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** How the API shows limits and their status: amounts as USD decimal strings. */
public final class SpendViews {
    private SpendViews() {
    }

    /** A limit as set. */
    @Introspected
    public record LimitView(String scope, @Nullable UUID projectId, @Nullable UUID sandboxId, String amountUsd,
                            String period, Instant updatedAt, String updatedBy) {
        static LimitView of(LimitState s) {
            return new LimitView(s.scope(), s.projectId(), s.sandboxId(), Money.usd(s.limitMicros()),
                    s.period().wire(), s.updatedAt(), s.updatedBy());
        }
    }

    /**
     * A limit with the spend counted against it in its current period, and the budget held by calls in flight
     * ({@code heldUsd}, not subtracted from {@code remainingUsd}: it is returned when a call settles below it).
     */
    @Introspected
    public record StatusView(String scope, @Nullable UUID projectId, @Nullable UUID sandboxId, String period,
                             Instant periodStart, Instant periodEnd, String limitUsd, String spentUsd, String heldUsd,
                             String remainingUsd, boolean exceeded) {
        static StatusView of(LimitState s, SpendReservations.Holds held) {
            return new StatusView(s.scope(), s.projectId(), s.sandboxId(), s.period().wire(), s.periodStart(),
                    s.periodEnd(), Money.usd(s.limitMicros()), Money.usd(s.spentMicros()), Money.usd(held.of(s)),
                    Money.usd(s.remainingMicros()), s.exceeded());
        }
    }

    /** The status of each limit, with what live reservations hold against it. */
    static List<StatusView> statuses(List<LimitState> limits, SpendReservations.Holds held) {
        return limits.stream().map(s -> StatusView.of(s, held)).toList();
    }

    /** Every limit of an organization. */
    @Introspected
    public record Limits(List<LimitView> items) {
    }

    /** Every limit of an organization with the spend counted in its current period (the MCP tool's answer). */
    @Introspected
    public record LimitStatuses(List<StatusView> items) {
    }

    /** The answer of a limit removed through MCP (REST answers 204). */
    @Introspected
    public record Removed(boolean deleted) {
    }

    @Introspected
    public record Status(Instant at, List<StatusView> items) {
    }

    /**
     * A limit as the capped sandbox sees it: the amount and spend only of its own cap; of its project's and
     * organization's limits only what is left, which is all an agent needs and tells it nothing of others' spend.
     */
    @Introspected
    public record OwnLimit(String scope, String period, Instant periodEnd, @Nullable String limitUsd,
                           @Nullable String spentUsd, String remainingUsd, boolean exceeded) {
        static OwnLimit of(LimitState s) {
            boolean own = s.scope().equals("sandbox");
            return new OwnLimit(s.scope(), s.period().wire(), s.periodEnd(), own ? Money.usd(s.limitMicros()) : null,
                    own ? Money.usd(s.spentMicros()) : null, Money.usd(s.remainingMicros()), s.exceeded());
        }
    }

    /** A sandbox's own spend and usage in the current calendar month (UTC), and the limits that apply to it. */
    @Introspected
    public record OwnSpend(UUID sandboxId, UUID projectId, Instant periodStart, Instant periodEnd, String spentUsd,
                           UsageCosts.Totals usage, boolean mayCallModels, List<OwnLimit> limits) {
    }
}
