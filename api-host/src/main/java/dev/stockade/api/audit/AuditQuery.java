package dev.stockade.api.audit;

import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.QueryParameters;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The filters of an audit-trail query, parsed and bounded: cursor (the ISO 8601 timestamp of the last entry seen,
 * with {@code cursorId}, its id, to break ties), time range, kind, action, actor, project, outcome, excludeReads.
 */
public record AuditQuery(@Nullable Instant cursor, @Nullable Long cursorId, @Nullable Instant from,
                         @Nullable Instant to, @Nullable String kind, @Nullable String action,
                         @Nullable String actorId, @Nullable UUID projectId, @Nullable String outcome,
                         boolean excludeReads, int limit) {
    public static final int MAX_LIMIT = 500;

    public static AuditQuery parse(Map<String, String> q) {
        int limit = q.containsKey("limit") ? integer("limit", q.get("limit")) : 50;
        if (limit < 1 || limit > MAX_LIMIT) {
            throw bad("limit", "`limit` must be between 1 and " + MAX_LIMIT);
        }
        String excl = q.getOrDefault("excludeReads", "false");
        if (!excl.equals("true") && !excl.equals("false")) {
            throw bad("excludeReads", "`excludeReads` must be `true` or `false`");
        }
        return new AuditQuery(instant("cursor", q.get("cursor")),
                q.containsKey("cursorId") ? (long) integer("cursorId", q.get("cursorId")) : null,
                instant("from", q.get("from")), instant("to", q.get("to")), q.get("kind"), q.get("action"),
                q.get("actorId"), q.containsKey("projectId") ? Authorizer.uuid("projectId", q.get("projectId")) : null,
                q.get("outcome"), excl.equals("true"), limit);
    }

    /** The WHERE clause after the trail's own condition, and its arguments, in order. */
    String where(List<Object> args) {
        StringBuilder sql = new StringBuilder();
        if (cursor != null && cursorId != null) {
            sql.append(" AND (at, id) < (?, ?)");
            args.add(java.sql.Timestamp.from(cursor));
            args.add(cursorId);
        } else if (cursor != null) {
            sql.append(" AND at < ?");
            args.add(java.sql.Timestamp.from(cursor));
        }
        add(sql, args, " AND at >= ?", from == null ? null : java.sql.Timestamp.from(from));
        add(sql, args, " AND at < ?", to == null ? null : java.sql.Timestamp.from(to));
        add(sql, args, " AND kind = ?", kind);
        add(sql, args, " AND action = ?", action);
        add(sql, args, " AND actor_id = ?", actorId);
        add(sql, args, " AND project_id = ?", projectId);
        add(sql, args, " AND outcome = ?", outcome);
        if (excludeReads) {
            sql.append(" AND NOT is_read");
        }
        return sql.toString();
    }

    private static void add(StringBuilder sql, List<Object> args, String clause, Object value) {
        if (value != null) {
            sql.append(clause);
            args.add(value);
        }
    }

    private static Instant instant(String name, String v) {
        return QueryParameters.instant(name, v);
    }

    private static int integer(String name, String v) {
        return QueryParameters.integer(name, v);
    }

    private static ApiProblem bad(String name, String detail) {
        return QueryParameters.invalid(name, detail);
    }

    static List<Object> newArgs(UUID orgId) {
        List<Object> args = new ArrayList<>();
        args.add(orgId);
        return args;
    }
}
