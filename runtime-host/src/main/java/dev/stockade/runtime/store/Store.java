package dev.stockade.runtime.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runtime's SQLite database: one connection in WAL mode with {@code synchronous=NORMAL}: a commit has
 * reached the WAL file in the operating system before it returns, so a committed write survives a crash
 * or SIGKILL of the process (a power cut may lose the last commits: the WAL is synced at checkpoints, not
 * per commit). SQLite has one writer at a time anyway; {@link ConnectionTurns} serialises use of the connection
 * and makes every {@link #tx} a unit, webhook intake first, everything else in arrival order. Checkpoints run
 * beside it ({@link Checkpointer}), never inside a commit.
 */
public final class Store implements AutoCloseable {
    /** Work against the connection inside one transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Maps one row. */
    @FunctionalInterface
    public interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** Whose turn a transaction waits for: intake (a webhook sender waits on the answer) goes first. */
    public enum Lane {
        /** A webhook delivery's checks and durable acceptance: the sender is waiting for the 202. */
        INTAKE,
        /** Everything else (run steps, schedules, the web UI, channels), in arrival order. */
        ORDINARY
    }

    private static final List<String> MIGRATIONS = List.of("/schema-v1.sql", "/schema-v2.sql");
    // The statements kept for each open store's connection. The static helpers below are handed the connection a
    // transaction's Work received, so they find that connection's statements here; any other connection (a
    // migration, an import) prepares and closes as before.
    private static final Map<Connection, Statements> KEPT = Collections.synchronizedMap(new IdentityHashMap<>());

    private final Connection connection;
    private final ConnectionTurns turns = new ConnectionTurns();
    private final Path file;
    private Checkpointer checkpointer;

    private Store(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
    }

    /** Who waits for the connection (its tests watch the queues). */
    ConnectionTurns turns() {
        return turns;
    }

    /** The statements kept for this store's connection (its tests watch reuse and the bound). */
    Statements statements() {
        return KEPT.get(connection);
    }

    /** The store's checkpointer (its tests watch its rounds). */
    Checkpointer checkpointer() {
        return checkpointer;
    }

    /** Opens (creating when absent) the database at {@code file} and applies pending migrations. */
    public static Store open(Path file) throws SQLException, IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("PRAGMA synchronous=NORMAL");
            st.execute("PRAGMA foreign_keys=ON");
            st.execute("PRAGMA busy_timeout=5000");
            st.execute("PRAGMA wal_autocheckpoint=0"); // the Checkpointer's thread does it, off the commit path
            st.execute("PRAGMA journal_size_limit=8388608"); // a burst's WAL is cut back to 8 MiB once reused
        }
        Store store = new Store(file, c);
        store.migrate();
        store.checkpointer = new Checkpointer(file);
        KEPT.put(c, new Statements(c));
        return store;
    }

    private void migrate() throws SQLException, IOException {
        int version = tx(c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA user_version")) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        });
        for (int v = version; v < MIGRATIONS.size(); v++) {
            String sql = resource(MIGRATIONS.get(v));
            int next = v + 1;
            tx(c -> {
                try (Statement st = c.createStatement()) {
                    for (String part : sql.split("\n;;\n")) {
                        if (!part.isBlank()) {
                            st.execute(part);
                        }
                    }
                    st.execute("PRAGMA user_version = " + next);
                }
                return null;
            });
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = Store.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing migration " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Runs {@code work} in one transaction in the ordinary lane; a thrown exception rolls it back. */
    public <T> T tx(Work<T> work) throws SQLException {
        return tx(Lane.ORDINARY, work);
    }

    /** Runs {@code work} in one transaction when {@code lane}'s turn comes; a thrown exception rolls it back. */
    public <T> T tx(Lane lane, Work<T> work) throws SQLException {
        turns.acquire(lane);
        try {
            connection.setAutoCommit(false);
            try {
                T out = work.run(connection);
                connection.commit();
                return out;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } finally {
            turns.release();
        }
    }

    /** Executes one statement with {@code args} in its own transaction; returns the update count. */
    public int update(String sql, Object... args) throws SQLException {
        return tx(c -> update(c, sql, args));
    }

    /** Executes one statement on {@code c} (inside a {@link #tx}). */
    public static int update(Connection c, String sql, Object... args) throws SQLException {
        Statements kept = KEPT.get(c);
        if (kept == null) {
            try (PreparedStatement ps = prepare(c, sql, args)) {
                return ps.executeUpdate();
            }
        }
        try {
            return bind(kept.get(sql), args).executeUpdate();
        } catch (SQLException | RuntimeException e) {
            kept.discard(sql);
            throw e;
        }
    }

    /** Runs a query in its own transaction. */
    public <T> List<T> query(String sql, Row<T> row, Object... args) throws SQLException {
        return tx(c -> query(c, sql, row, args));
    }

    /** Runs a query on {@code c} (inside a {@link #tx}). */
    public static <T> List<T> query(Connection c, String sql, Row<T> row, Object... args) throws SQLException {
        Statements kept = KEPT.get(c);
        if (kept == null) {
            try (PreparedStatement ps = prepare(c, sql, args)) {
                return rows(ps, row);
            }
        }
        try {
            return rows(bind(kept.get(sql), args), row);
        } catch (SQLException | RuntimeException e) {
            kept.discard(sql);
            throw e;
        }
    }

    private static <T> List<T> rows(PreparedStatement ps, Row<T> row) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            List<T> out = new ArrayList<>();
            while (rs.next()) {
                out.add(row.map(rs));
            }
            return out;
        }
    }

    /** The first row of a query, or {@code null}. */
    public <T> T one(String sql, Row<T> row, Object... args) throws SQLException {
        List<T> rows = query(sql, row, args);
        return rows.isEmpty() ? null : rows.get(0);
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            return bind(ps, args);
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    private static PreparedStatement bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
        return ps;
    }

    public Path file() {
        return file;
    }

    @Override
    public void close() throws SQLException {
        turns.acquire(Lane.ORDINARY);
        try {
            if (checkpointer != null) {
                checkpointer.close();
            }
            Statements kept = KEPT.remove(connection);
            if (kept != null) {
                kept.close();
            }
            connection.close();
        } finally {
            turns.release();
        }
    }
}
