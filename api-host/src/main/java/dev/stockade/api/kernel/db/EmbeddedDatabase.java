package dev.stockade.api.kernel.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL server kept in {@code <dataDir>/pg}: the zero-setup default of {@code stockade serve}. Its data
 * survives restarts; commits are synchronous (fsync on) so what the API acknowledged survives a crash. A server left
 * running by a host that was killed (SIGKILL) is stopped before a new one starts on the same directory.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    public static EmbeddedDatabase start(Path dir) throws IOException {
        Files.createDirectories(dir);
        stopOrphan(dir);
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(dir)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .setServerConfig("max_connections", "100")
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setPGStartupWait(java.time.Duration.ofSeconds(60))
                .start();
        return new EmbeddedDatabase(pg);
    }

    public String jdbcUrl(String database) {
        return postgres.getJdbcUrl("postgres", database);
    }

    public String user() {
        return "postgres";
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }

    /** Stops a postmaster whose host died without stopping it (its pid file still names a live postgres). */
    static void stopOrphan(Path dir) throws IOException {
        Path pidFile = dir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        long pid;
        try {
            pid = lines.isEmpty() ? -1 : Long.parseLong(lines.get(0).trim());
        } catch (NumberFormatException e) {
            return;
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty() || !p.get().info().command().map(c -> c.contains("postgres")).orElse(false)) {
            return;
        }
        p.get().destroy(); // SIGTERM: smart shutdown; its clients died with the host
        try {
            p.get().onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.get().destroyForcibly();
        }
    }
}
