package dev.stockade.runtime.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The store's prepared statements, kept by SQL text and reused: preparing one again for every call compiled the SQL
 * and built the driver's statement each time, about a third of what a webhook's checks allocate (docs/benchmarks.md,
 * 2026-11-28). Bounded (least recently used evicted and closed). Not thread-safe: it is only used by the holder of
 * the connection's turn ({@link ConnectionTurns}), one transaction at a time.
 */
final class Statements implements AutoCloseable {
    /** Distinct statements kept; the runtime's code has about a hundred, the hot ones a few dozen. */
    static final int CAPACITY = 128;

    private final Connection connection;
    private final Map<String, PreparedStatement> kept = new LinkedHashMap<>(CAPACITY * 2, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= CAPACITY) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };

    Statements(Connection connection) {
        this.connection = connection;
    }

    /** The statement for {@code sql} with its parameters cleared, prepared on first use. */
    // INVARIANT: a statement's result set is closed before the statement is asked for again: the store's helpers read
    // every row before they return, and no row mapper runs the same SQL (a nested transaction is refused anyway).
    PreparedStatement get(String sql) throws SQLException {
        PreparedStatement ps = kept.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            kept.put(sql, ps);
        } else {
            ps.clearParameters();
        }
        return ps;
    }

    /** Drops {@code sql}'s statement after a failure, so that a statement in an unknown state is never reused. */
    void discard(String sql) {
        PreparedStatement ps = kept.remove(sql);
        if (ps != null) {
            closeQuietly(ps);
        }
    }

    /** How many statements are kept (its tests watch the bound). */
    int size() {
        return kept.size();
    }

    @Override
    public void close() {
        List<PreparedStatement> all = new ArrayList<>(kept.values());
        kept.clear();
        all.forEach(Statements::closeQuietly);
    }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException e) {
            // closing a statement of a connection that stays open: nothing to recover
        }
    }
}
