package dev.stockade.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's PostgreSQL 15 server ({@code apt-get install postgresql-15}), made with its own {@code initdb} in a
 * temporary directory and started with {@code pg_ctl} for one test class: the external database an operator gives
 * {@code stockade serve --database-url}, not the embedded one. Debian's {@code initdb} refuses root, so as root the
 * server runs as the package's {@code postgres} user ({@code runuser}). Shared by the replica tests and the
 * replica benchmark.
 */
public final class DebianPostgres implements AutoCloseable {
    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");

    private final Path dir;
    private final int port;

    private DebianPostgres(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Makes a cluster (trust authentication on loopback only) and starts it; skips the test where none is installed. */
    public static DebianPostgres start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(BIN.resolve("initdb")), () -> BIN.resolve("initdb")
                + " is missing: install it with `apt-get install postgresql-15` (.ci/run does)");
        Path dir = Files.createTempDirectory("stockade-debian-pg");
        if (root()) {
            run(List.of("chown", "postgres:postgres", dir.toString()));
        }
        int port = freePort();
        run(asServerUser(BIN.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-A", "trust",
                "-U", "postgres", "--no-sync"));
        // sockets in the cluster's own directory, TCP on loopback only; max_connections for two pools and the tests
        run(asServerUser(BIN.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-t", "60",
                "-l", dir.resolve("server.log").toString(), "-o", "-p " + port + " -k " + dir
                        + " -c listen_addresses=127.0.0.1 -c max_connections=120", "start"));
        return new DebianPostgres(dir, port);
    }

    /** A new empty database on this server; its JDBC URL. */
    public String newDatabase(String name) throws Exception {
        try (Connection c = DriverManager.getConnection(url("postgres"), "postgres", "");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return url(name);
    }

    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    @Override
    public void close() throws Exception {
        try {
            run(asServerUser(BIN.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m",
                    "immediate", "-w", "stop"));
        } finally {
            remove(dir); // after the server stopped: it writes there until then
        }
    }

    private static void remove(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a file vanished mid-walk: what is left is harmless
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static List<String> asServerUser(String... command) {
        List<String> out = new ArrayList<>();
        if (root()) {
            out.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        out.addAll(List.of(command));
        return out;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed: "
                    + new String(out, StandardCharsets.UTF_8));
        }
    }

    private static int freePort() {
        return Ports.free();
    }
}
