package dev.stockade.runtime;

import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.observe.Log;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code POST /agents/import}: stages a replacement SQLite database (the body) next to the live one; the
 * next start swaps it in and keeps the replaced file. Not gated by the lock.
 */
final class DatabaseImport {
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private final Path database;

    DatabaseImport(Path database) {
        this.database = database;
    }

    static Path staged(Path database) {
        return database.resolveSibling(database.getFileName() + ".import-staged");
    }

    Response post(Request req) throws IOException {
        byte[] body = req.body();
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw new HttpProblem(400, "not-a-database", "the body must be a SQLite database file");
        }
        Path tmp = Files.createTempFile(database.toAbsolutePath().getParent(), "import", ".db");
        Files.write(tmp, body);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp);
             var rs = c.createStatement().executeQuery("SELECT count(*) FROM agent")) {
            rs.next();
        } catch (SQLException e) {
            Files.deleteIfExists(tmp);
            throw new HttpProblem(400, "not-an-agent-database", "the database has no agent table");
        }
        Files.move(tmp, staged(database), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Log.info("import.staged", "bytes", body.length);
        return Response.json(202, Map.of("staged", true, "appliesOn", "restart"));
    }

    /** At boot: swaps a staged database in, keeping the replaced one beside it. */
    static void applyStaged(Path database) throws IOException {
        Path staged = staged(database);
        if (!Files.exists(staged)) {
            return;
        }
        if (Files.exists(database)) {
            Files.move(database, database.resolveSibling(database.getFileName() + ".replaced-"
                    + Instant.now().toString().replace(':', '-')));
        }
        for (String suffix : new String[] {"-wal", "-shm"}) {
            Files.deleteIfExists(database.resolveSibling(database.getFileName() + suffix));
        }
        Files.move(staged, database, StandardCopyOption.ATOMIC_MOVE);
        Log.info("import.applied");
    }
}
