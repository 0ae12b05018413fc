package dev.stockade.runtime.agent;

import dev.stockade.runtime.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;

/** The agent's documents in SQLite; the Agent Guide is bundled with the runtime and read-only. */
public final class Documents {
    private final Store store;
    private final String guide;

    public Documents(Store store) {
        this.store = store;
        this.guide = bundledGuide();
    }

    private static String bundledGuide() {
        try (InputStream in = Documents.class.getResourceAsStream("/agent-guide.md")) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The document's text ("" when never written). */
    public String read(DocumentKind kind) throws SQLException {
        if (kind == DocumentKind.AGENT_GUIDE) {
            return guide;
        }
        String v = store.one("SELECT content FROM documents WHERE kind = ?", rs -> rs.getString(1), kind.wire());
        return v == null ? "" : v;
    }

    /** Replaces a writable document; callers check the lock first. */
    public void write(DocumentKind kind, String content) throws SQLException {
        if (!kind.writable()) {
            throw new IllegalArgumentException("the Agent Guide is read-only");
        }
        store.update("INSERT INTO documents(kind, content, updated_at) VALUES (?,?,?) ON CONFLICT(kind) DO UPDATE "
                + "SET content = excluded.content, updated_at = excluded.updated_at", kind.wire(), content,
                Instant.now().toString());
    }
}
