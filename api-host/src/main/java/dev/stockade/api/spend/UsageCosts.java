package dev.stockade.api.spend;

import static dev.stockade.api.kernel.web.QueryParameters.invalid;

import dev.stockade.api.kernel.db.Sql;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads the usage ledger: totals grouped by project, sandbox, provider and model, and time series in hour or day
 * buckets (UTC). Every answer is bounded: {@value #MAX_GROUPS} groups (most costly first) and {@value #MAX_BUCKETS}
 * buckets at most. Cost sums every priced call, metered or not; calls without a price are counted apart.
 */
@Singleton
record UsageCosts(Sql jdbc) {
    public static final int MAX_GROUPS = 1000;
    public static final int MAX_BUCKETS = 1000;
    private static final String SUMS = "COALESCE(sum(cost_micros), 0), count(*), COALESCE(sum(input_tokens), 0),"
            + " COALESCE(sum(output_tokens), 0), count(*) FILTER (WHERE cost_micros IS NULL),"
            + " count(*) FILTER (WHERE NOT metered)";

    /** What usage can be grouped by, and its ledger column. */
    public enum Dimension {
        PROJECT("project_id"), SANDBOX("sandbox_id"), PROVIDER("provider"), MODEL("model");

        private final String column;

        Dimension(String column) {
            this.column = column;
        }

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The sums of a set of calls. */
    @Introspected
    public record Totals(String costUsd, long calls, long inputTokens, long outputTokens, long unpricedCalls,
                         long unmeteredCalls) {
    }

    /** One group: the dimensions it was grouped by (null where not grouped by) and its sums. */
    @Introspected
    public record Group(@Nullable UUID projectId, @Nullable UUID sandboxId, @Nullable String provider,
                       @Nullable String model, Totals usage) {
    }

    @Introspected
    public record Report(Instant from, Instant to, List<String> groupBy, Totals total, List<Group> groups,
                         boolean truncated) {
    }

    @Introspected
    public record Bucket(Instant start, Totals usage) {
    }

    @Introspected
    public record Series(Instant from, Instant to, String interval, List<Bucket> buckets) {
    }

    /** {@code groupBy}: absent, every dimension; empty, none (totals only); else a comma list of dimensions. */
    public static List<Dimension> dimensions(@Nullable String groupBy) {
        if (groupBy == null) {
            return List.of(Dimension.values());
        }
        List<Dimension> out = new ArrayList<>();
        for (String name : groupBy.isEmpty() ? new String[0] : groupBy.split(",", -1)) {
            Dimension d = java.util.Arrays.stream(Dimension.values()).filter(x -> x.wire().equals(name)).findFirst()
                    .orElseThrow(() -> invalid("groupBy", "`groupBy` must list project, sandbox, provider or model,"
                            + " separated by commas"));
            if (out.contains(d)) {
                throw invalid("groupBy", "`groupBy` names `" + name + "` twice");
            }
            out.add(d);
        }
        return out;
    }

    /** The totals of the query's range and filters, and their groups by {@code groupBy} (none: totals only). */
    public Report report(UUID orgId, UsageQuery q, List<Dimension> groupBy) {
        List<Object> args = new ArrayList<>();
        String where = " FROM usage_ledger WHERE " + q.where(orgId, args);
        Totals total = jdbc.query("SELECT " + SUMS + where, args, rs -> totals(rs, 1)).get(0);
        if (groupBy.isEmpty()) {
            return new Report(q.from(), q.to(), List.of(), total, List.of(), false);
        }
        StringBuilder select = new StringBuilder();
        List<String> keys = new ArrayList<>();
        for (Dimension d : Dimension.values()) {
            select.append(groupBy.contains(d) ? d.column : "NULL").append(", ");
            if (groupBy.contains(d)) {
                keys.add(d.column);
            }
        }
        String by = String.join(", ", keys);
        List<Group> groups = jdbc.query("SELECT " + select + SUMS + where + " GROUP BY " + by
                + " ORDER BY sum(cost_micros) DESC NULLS LAST, count(*) DESC, " + by + " LIMIT "
                + (MAX_GROUPS + 1), args, rs -> new Group(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class),
                rs.getString(3), rs.getString(4), totals(rs, 5)));
        boolean truncated = groups.size() > MAX_GROUPS;
        return new Report(q.from(), q.to(), groupBy.stream().map(Dimension::wire).toList(), total,
                truncated ? List.copyOf(groups.subList(0, MAX_GROUPS)) : groups, truncated);
    }

    /** Every bucket of {@code interval} ({@code hour} or {@code day}, UTC) from the one holding {@code from}. */
    public Series timeseries(UUID orgId, UsageQuery q, String interval) {
        ChronoUnit unit = switch (interval) {
            case "hour" -> ChronoUnit.HOURS;
            case "day" -> ChronoUnit.DAYS;
            default -> throw invalid("interval", "`interval` must be hour or day");
        };
        Instant first = q.from().truncatedTo(unit);
        long count = (Duration.between(first, q.to()).toSeconds() + unit.getDuration().toSeconds() - 1)
                / unit.getDuration().toSeconds();
        if (count > MAX_BUCKETS) {
            throw invalid("interval", "the range holds " + count + " " + interval + " buckets; at most " + MAX_BUCKETS
                    + " are served (shorten the range or use a longer interval)");
        }
        List<Object> args = new ArrayList<>();
        Map<Instant, Totals> found = new HashMap<>();
        jdbc.query("SELECT date_trunc('" + interval + "', occurred_at AT TIME ZONE 'UTC'), " + SUMS
                + " FROM usage_ledger WHERE " + q.where(orgId, args) + " GROUP BY 1", args,
                rs -> found.put(rs.getObject(1, LocalDateTime.class).toInstant(ZoneOffset.UTC), totals(rs, 2)));
        List<Bucket> buckets = new ArrayList<>();
        for (Instant b = first; b.isBefore(q.to()); b = b.plus(1, unit)) {
            buckets.add(new Bucket(b, found.getOrDefault(b, new Totals(Money.usd(0), 0, 0, 0, 0, 0))));
        }
        return new Series(q.from(), q.to(), interval, buckets);
    }

    private static Totals totals(ResultSet rs, int at) throws SQLException {
        return new Totals(Money.usd(rs.getLong(at)), rs.getLong(at + 1), rs.getLong(at + 2), rs.getLong(at + 3),
                rs.getLong(at + 4), rs.getLong(at + 5));
    }
}
