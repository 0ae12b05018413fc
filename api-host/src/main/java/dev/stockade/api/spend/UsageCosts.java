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
import java.util.stream.Collectors;

/**
 * Reads the usage ledger: totals grouped by project, sandbox, provider and model, and time series in hour or day
 * buckets (UTC). Every answer is bounded: {@value #MAX_GROUPS} groups (most costly first) and {@value #MAX_BUCKETS}
 * buckets at most. Cost sums every priced call, metered or not; calls without a price are counted apart.
 */
@Singleton
record UsageCosts(Sql jdbc) {
    public static final int MAX_GROUPS = 1000;
    public static final int MAX_BUCKETS = 1000;
    /** Cost, calls, each bucket of {@link TokenBuckets#COLUMNS}, unpriced calls, unmetered calls: {@link Totals}. */
    private static final String SUMS = "COALESCE(sum(cost_micros), 0), count(*), "
            + TokenBuckets.COLUMNS.stream().map(c -> "COALESCE(sum(" + c + "), 0), ").collect(Collectors.joining())
            + "count(*) FILTER (WHERE cost_micros IS NULL), count(*) FILTER (WHERE NOT metered)";

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

    /**
     * The sums of a set of calls, with each bucket the calls were priced by: {@code inputTokens} and
     * {@code outputTokens} count every token of their side and the other token counts are parts of them. Calls
     * recorded before the ledger kept the parts add 0 to each part.
     *
     * @param costUsd              every priced call's cost, metered or not
     * @param calls                every call, priced or not, metered or not
     * @param inputTokens          every input token, cached or not
     * @param outputTokens         every output token, reasoning and audio included
     * @param cacheReadTokens      the part of the input read from the prompt cache
     * @param cacheWriteTokens     the part of the input written to the prompt cache, all lifetimes
     * @param cacheWrite1hTokens   the part of {@code cacheWriteTokens} written for one hour
     * @param reasoningTokens      the part of the output spent on reasoning
     * @param inputAudioTokens     the part of the uncached input that is audio
     * @param cacheReadAudioTokens the part of {@code cacheReadTokens} that is audio
     * @param outputAudioTokens    the part of the output that is audio
     * @param inputImageTokens     the part of the uncached input that is images
     * @param cacheReadImageTokens the part of {@code cacheReadTokens} that is images
     * @param webSearches          server-side web searches, billed per request
     * @param unpricedCalls        calls without a price (they count zero toward limits)
     * @param unmeteredCalls       direct provider calls that bypassed the proxy
     */
    @Introspected
    public record Totals(String costUsd, long calls, long inputTokens, long outputTokens, long cacheReadTokens,
                         long cacheWriteTokens, long cacheWrite1hTokens, long reasoningTokens, long inputAudioTokens,
                         long cacheReadAudioTokens, long outputAudioTokens, long inputImageTokens,
                         long cacheReadImageTokens, long webSearches, long unpricedCalls, long unmeteredCalls) {
        /** No call at all: an empty bucket. */
        static final Totals NONE = new Totals(Money.usd(0), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
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
            buckets.add(new Bucket(b, found.getOrDefault(b, Totals.NONE)));
        }
        return new Series(q.from(), q.to(), interval, buckets);
    }

    /** The {@link #SUMS} from column {@code at} on. */
    private static Totals totals(ResultSet rs, int at) throws SQLException {
        // INVARIANT: Totals lists calls, then the buckets in the order of TokenBuckets.COLUMNS, then the two counts
        long[] n = new long[TokenBuckets.COLUMNS.size() + 3];
        for (int i = 0; i < n.length; i++) {
            n[i] = rs.getLong(at + 1 + i);
        }
        return new Totals(Money.usd(rs.getLong(at)), n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], n[9], n[10],
                n[11], n[12], n[13], n[14]);
    }
}
