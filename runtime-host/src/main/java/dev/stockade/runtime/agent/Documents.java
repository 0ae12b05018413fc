package dev.stockade.runtime.agent;

import dev.stockade.runtime.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

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

    /**
     * Every document's text ("" when never written), read in one transaction: the system prompt, built before each
     * model call, then takes the store's connection once rather than once per document.
     */
    public Map<DocumentKind, String> readAll() throws SQLException {
        Map<DocumentKind, String> all = new EnumMap<>(DocumentKind.class);
        for (DocumentKind k : DocumentKind.values()) {
            all.put(k, k == DocumentKind.AGENT_GUIDE ? guide : "");
        }
        store.query("SELECT kind, content FROM documents", rs -> {
            DocumentKind k = DocumentKind.parse(rs.getString(1));
            if (k != null && k.writable()) { // the Agent Guide is always the bundled one, as in read
                all.put(k, rs.getString(2));
            }
            return k;
        });
        return all;
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
