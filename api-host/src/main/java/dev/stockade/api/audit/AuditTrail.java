package dev.stockade.api.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Reads the audit trail: pages newest first by (timestamp, id), stats and time series. */
@Singleton
public class AuditTrail {
    /** One entry as the API shows it. */
    @Introspected
    public record Entry(long id, Instant at, @Nullable UUID projectId, String kind, String action, boolean read,
                        String outcome, EntryActor actor, @Nullable String target, Map<String, Object> details) {
    }

    /** Who acted: the actor's type ({@code user}, {@code api-token}, {@code sandbox}, ...) and id. */
    @Introspected
    public record EntryActor(String type, String id) {
    }

    /** Counts over a query's range and filters: all, by kind and by outcome (each sorted by name). */
    @Introspected
    public record Stats(long total, Map<String, Long> byKind, Map<String, Long> byOutcome) {
    }

    /** Counts per time bucket of {@code interval} ({@code minute}, {@code hour} or {@code day}). */
    @Introspected
    public record Timeseries(String interval, List<Bucket> buckets) {
    }

    /** A page and the cursor of the next one (null on the last page). */
    @Introspected
    public record Page(List<Entry> items, @Nullable String nextCursor, @Nullable Long nextCursorId) {
    }

    @Introspected
    public record Bucket(Instant start, long count) {
    }

    private final Sql jdbc;
    private final ObjectMapper json;

    public AuditTrail(Sql jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** A page of {@code orgId}'s trail; {@code orgId} null: the installation-wide entries (no organization). */
    public Page page(@Nullable UUID orgId, AuditQuery q) {
        List<Object> args = new ArrayList<>();
        String sql = "SELECT id, at, project_id, kind, action, is_read, outcome, actor_type, actor_id, target, details"
                + " FROM audit_entries WHERE " + trail(orgId, args) + q.where(args)
                + " ORDER BY at DESC, id DESC LIMIT " + (q.limit() + 1);
        List<Entry> rows = jdbc.query(sql, args, rs -> new Entry(rs.getLong(1), rs.getTimestamp(2).toInstant(),
                rs.getObject(3, UUID.class), rs.getString(4), rs.getString(5), rs.getBoolean(6), rs.getString(7),
                actor(rs.getString(8), rs.getString(9)), rs.getString(10), details(rs.getString(11))));
        if (rows.size() <= q.limit()) {
            return new Page(rows, null, null);
        }
        List<Entry> page = rows.subList(0, q.limit());
        Entry last = page.get(page.size() - 1);
        return new Page(List.copyOf(page), last.at().toString(), last.id());
    }

    /** Which trail: an organization's, or the installation-wide one (a plain equality would never match null). */
    private static String trail(@Nullable UUID orgId, List<Object> args) {
        if (orgId == null) {
            return "org_id IS NULL";
        }
        args.add(orgId);
        return "org_id = ?";
    }

    /** Counts by kind and by outcome over the query's range and filters. */
    public Stats stats(UUID orgId, AuditQuery q) {
        List<Object> args = AuditQuery.newArgs(orgId);
        String where = " FROM audit_entries WHERE org_id = ?" + q.where(args);
        return new Stats(jdbc.query("SELECT count(*)" + where, args, rs -> rs.getLong(1)).get(0),
                counts("SELECT kind, count(*)" + where + " GROUP BY kind ORDER BY kind", args),
                counts("SELECT outcome, count(*)" + where + " GROUP BY outcome ORDER BY outcome", args));
    }

    public Timeseries timeseries(UUID orgId, AuditQuery q, String interval) {
        List<Object> args = AuditQuery.newArgs(orgId);
        String sql = "SELECT date_trunc('" + interval + "', at) AS b, count(*) FROM audit_entries WHERE org_id = ?"
                + q.where(args) + " GROUP BY b ORDER BY b";
        return new Timeseries(interval, jdbc.query(sql, args, rs -> new Bucket(rs.getTimestamp(1).toInstant(),
                rs.getLong(2))));
    }

    private Map<String, Long> counts(String sql, List<Object> args) {
        Map<String, Long> out = new LinkedHashMap<>();
        jdbc.query(sql, args, rs -> out.put(rs.getString(1), rs.getLong(2)));
        return out;
    }

    private static EntryActor actor(String type, String id) {
        return new EntryActor(type, id);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> details(String s) {
        try {
            return json.readValue(s, Map.class);
        } catch (JsonProcessingException e) {
            return Map.of();
        }
    }
}
