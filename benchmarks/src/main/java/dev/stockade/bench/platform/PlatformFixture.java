package dev.stockade.bench.platform;

import dev.stockade.api.kernel.db.EmbeddedDatabase;
import dev.stockade.api.kernel.db.Sql;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Types;
import java.util.Map;
import java.util.UUID;

/**
 * The platform's beans without its HTTP server: a Micronaut context on a fresh embedded PostgreSQL (the one
 * {@code stockade serve} runs, fsync and synchronous_commit on) in a temporary directory, removed on close.
 */
final class PlatformFixture implements AutoCloseable {
    private final Path dir;
    private final EmbeddedDatabase db;
    private final ApplicationContext context;

    PlatformFixture() throws IOException {
        dir = Files.createTempDirectory("stockade-bench-platform");
        db = EmbeddedDatabase.start(dir.resolve("pg"));
        context = ApplicationContext.builder().properties(Map.of(
                "datasources.default.url", db.jdbcUrl("postgres"),
                "datasources.default.username", db.user(),
                "config.data-dir", dir.toString())).start();
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** The installation owner's token, written on the first start of the empty database. */
    String ownerToken() throws IOException {
        return Files.readString(dir.resolve("owner-token")).trim();
    }

    /** A new organization row (audit entries reference it). */
    UUID newOrg() {
        UUID id = UUID.randomUUID();
        bean(Sql.class).prepare("INSERT INTO organizations (id, name) VALUES (?, ?)", ps -> {
            ps.setObject(1, id, Types.OTHER);
            ps.setString(2, "bench-" + id);
            return ps.executeUpdate();
        });
        return id;
    }

    /** A new project row of {@code org} (ledger rows and spend reservations reference it). */
    UUID newProject(UUID org) {
        UUID id = UUID.randomUUID();
        bean(Sql.class).prepare("INSERT INTO projects (id, org_id, name) VALUES (?, ?, ?)", ps -> {
            ps.setObject(1, id, Types.OTHER);
            ps.setObject(2, org, Types.OTHER);
            ps.setString(3, "bench-" + id);
            return ps.executeUpdate();
        });
        return id;
    }

    @Override
    public void close() throws IOException {
        context.close();
        db.close();
        dev.stockade.bench.Scratch.remove(dir);
    }
}
