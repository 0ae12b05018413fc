package dev.stockade.runtime.store;

import dev.stockade.runtime.observe.Log;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Moves the WAL into the database file from a connection and a thread of its own, twice a second, so
 * that no commit on the store's connection pays for a checkpoint (SQLite's automatic checkpoint runs inside
 * the commit that crosses its threshold, fsyncs included: the intake's p99). A passive checkpoint never
 * blocks the writer; frames in use by a reader stay until the next round.
 */
final class Checkpointer implements AutoCloseable {
    static final long PERIOD_MS = 500;
    private final Connection connection;
    private final ScheduledExecutorService rounds = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sqlite-checkpoint");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong completed = new AtomicLong();
    private volatile boolean closed;

    Checkpointer(Path file) throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement st = connection.createStatement()) {
            st.execute("PRAGMA busy_timeout=5000");
        }
        rounds.scheduleWithFixedDelay(this::checkpoint, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    synchronized void checkpoint() {
        if (closed) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("PRAGMA wal_checkpoint(PASSIVE)");
            completed.incrementAndGet();
        } catch (SQLException e) {
            Log.warn("store.checkpoint_failed", "error", e.getClass().getSimpleName());
        }
    }

    /** How many rounds have completed (tests wait on it instead of guessing how long a round takes). */
    long completedRounds() {
        return completed.get();
    }

    @Override
    public void close() throws SQLException {
        closed = true;
        rounds.shutdownNow();
        synchronized (this) {
            connection.close();
        }
    }
}
