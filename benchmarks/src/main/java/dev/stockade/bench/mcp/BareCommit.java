package dev.stockade.bench.mcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The floor under every audited call, measured in the same run: one small row inserted and committed on its own
 * against the platform's own PostgreSQL (synchronous_commit and fsync on, so each commit waits for one WAL flush).
 * A {@code tools/call} answers only after its audit entry's commit returned, so the call cannot add less than this.
 */
final class BareCommit {
    private BareCommit() {
    }

    /** Commits one row at a time for {@code seconds}; the latency of each INSERT's autocommit, in ms. */
    static List<Double> measure(Path platformDir, int seconds) throws IOException, SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port(platformDir)
                + "/postgres", "postgres", "")) {
            check(c, "synchronous_commit");
            check(c, "fsync");
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS bench_bare_commit (id bigserial PRIMARY KEY,"
                        + " at timestamptz NOT NULL DEFAULT now(), note text NOT NULL)");
            }
            List<Double> ms = new ArrayList<>();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO bench_bare_commit (note) VALUES (?)")) {
                while (System.nanoTime() < until) {
                    insert.setString(1, "tool call c0__t1");
                    long t0 = System.nanoTime();
                    int rows = insert.executeUpdate(); // autocommit: one transaction, one WAL flush
                    ms.add((System.nanoTime() - t0) / 1e6);
                    if (rows != 1) {
                        throw new IllegalStateException("wrong answer: the insert stored " + rows + " rows");
                    }
                }
            }
            return ms;
        }
    }

    /** The figure means a durable commit only if the server flushes on commit: refuse to measure otherwise. */
    private static void check(Connection c, String setting) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + setting)) {
            String value = rs.next() ? rs.getString(1) : "";
            if (!value.equals("on")) {
                throw new IllegalStateException("wrong setup: the platform's database runs with " + setting + "="
                        + value + "; a bare commit would not include a WAL flush");
            }
        }
    }

    /** The embedded PostgreSQL's port: line 4 of its postmaster.pid in the platform's data directory. */
    private static int port(Path platformDir) throws IOException {
        List<String> lines = Files.readAllLines(platformDir.resolve("pg").resolve("postmaster.pid"));
        if (lines.size() < 4) {
            throw new IllegalStateException("the platform's postmaster.pid names no port");
        }
        return Integer.parseInt(lines.get(3).strip());
    }
}
