package dev.stockade.api.support;

import dev.stockade.api.kernel.db.EmbeddedDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL server per test JVM (the same embedded server {@code stockade serve} runs), and a fresh
 * database for each application context, so tests never see each other's rows. With
 * {@code STOCKADE_TEST_DATABASE_URL} set (CI points it at Debian's PostgreSQL 15), databases are made there instead.
 */
public final class TestDatabase {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static EmbeddedDatabase server;
    private static String adminUrl;
    private static String user;
    private static String password;

    private TestDatabase() {
    }

    private static synchronized void start() throws Exception {
        if (adminUrl != null) {
            return;
        }
        String external = System.getenv("STOCKADE_TEST_DATABASE_URL");
        if (external != null && !external.isBlank()) {
            adminUrl = external;
            user = System.getenv().getOrDefault("STOCKADE_TEST_DATABASE_USER", "postgres");
            password = System.getenv().getOrDefault("STOCKADE_TEST_DATABASE_PASSWORD", "");
            return;
        }
        Path dir = Scratch.unmanaged("stockade-test-pg");
        server = EmbeddedDatabase.start(dir);
        adminUrl = server.jdbcUrl("postgres");
        user = server.user();
        password = "";
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception ignored) {
                // the JVM is exiting
            }
            Scratch.remove(dir); // after the server stopped: it writes there until then
        }, "test-database-stop"));
    }

    /** A new empty database; returns its JDBC URL. */
    public static String newDatabase() {
        try {
            start();
            String name = "stockade_test_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
            try (Connection c = DriverManager.getConnection(adminUrl, user, password); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + name);
            }
            return adminUrl.replaceFirst("/[^/?]*(\\?|$)", "/" + name + "$1");
        } catch (Exception e) {
            throw new IllegalStateException("the test database could not be created", e);
        }
    }

    public static String user() {
        return user;
    }

    public static String password() {
        return password;
    }
}
