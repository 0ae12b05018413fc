package dev.stockade.api.kernel.db;

import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Plain SQL on the current transaction's connection when there is one, otherwise on a connection of its own for the
 * statement: features use it for the queries a repository method cannot express (joins, upserts, batches, pages).
 */
@Singleton
public final class Sql {
    /** Work done with a prepared statement. */
    @FunctionalInterface
    public interface Statement<R> {
        R apply(PreparedStatement ps) throws SQLException;
    }

    /** Reads the current row of a result into a value. */
    @FunctionalInterface
    public interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final JdbcOperations jdbc;
    private final ConnectionOperations<Connection> connections;

    public Sql(JdbcOperations jdbc, ConnectionOperations<Connection> connections) {
        this.jdbc = jdbc;
        this.connections = connections;
    }

    public <R> R prepare(String sql, Statement<R> work) {
        return connections.executeWrite(status -> jdbc.prepareStatement(sql, work::apply));
    }

    /** Runs a query with {@code args} bound in order (see {@link #bind}) and maps every row. */
    public <T> List<T> query(String sql, List<?> args, Row<T> row) {
        return prepare(sql, ps -> {
            bind(ps, args);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.map(rs));
                }
            }
            return out;
        });
    }

    /** As {@link #query}, for a lookup: the first row mapped, or empty when the query finds none. */
    public <T> Optional<T> first(String sql, List<?> args, Row<T> row) {
        List<T> rows = query(sql, args, row);
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0));
    }

    /** Whether the query finds a row. */
    public boolean exists(String sql, List<?> args) {
        return first(sql, args, rs -> true).isPresent();
    }

    /** Runs a statement with {@code args} bound in order; returns the number of rows it changed. */
    public int update(String sql, List<?> args) {
        return prepare(sql, ps -> {
            bind(ps, args);
            return ps.executeUpdate();
        });
    }

    /**
     * Binds one array per column, the first at parameter 1 ({@code types[i]} names column i's SQL type): the rows of a
     * batch as arrays, for one {@code INSERT ... SELECT FROM unnest(...)} instead of a statement per row.
     */
    public static void bindColumns(PreparedStatement ps, String[] types, Object[][] columns) throws SQLException {
        for (int c = 0; c < columns.length; c++) {
            ps.setArray(c + 1, ps.getConnection().createArrayOf(types[c], columns[c]));
        }
    }

    /**
     * Binds a UUID as {@code uuid}, UUIDs ({@code UUID[]}) as {@code uuid[]} (for {@code = ANY (?)}), an instant as
     * {@code timestamptz}, null untyped (cast it in the SQL).
     */
    private static void bind(PreparedStatement ps, List<?> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            if (a == null || a instanceof UUID) {
                ps.setObject(i + 1, a, Types.OTHER);
            } else if (a instanceof UUID[] ids) {
                ps.setArray(i + 1, ps.getConnection().createArrayOf("uuid", ids));
            } else if (a instanceof Instant t) {
                ps.setObject(i + 1, t.atOffset(ZoneOffset.UTC));
            } else {
                ps.setObject(i + 1, a);
            }
        }
    }
}
