package dev.stockade.api.db;

import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

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

    private final JdbcOperations jdbc;
    private final ConnectionOperations<Connection> connections;

    public Sql(JdbcOperations jdbc, ConnectionOperations<Connection> connections) {
        this.jdbc = jdbc;
        this.connections = connections;
    }

    public <R> R prepare(String sql, Statement<R> work) {
        return connections.executeWrite(status -> jdbc.prepareStatement(sql, work::apply));
    }
}
