package dev.stockade.api.enforcement;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.proxy.feed.DocumentHash;
import java.sql.Array;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code enforcement_documents} table: each distinct policy document of any set, once, by the hash of its text.
 * A hash's text never changes, so storing is "insert what is not there yet" and readers may cache for ever.
 */
final class EnforcementDocuments {
    private final Sql jdbc;

    EnforcementDocuments(Sql jdbc) {
        this.jdbc = jdbc;
    }

    /** Stores the documents not stored yet (on the caller's transaction): one query to ask, one batch to insert. */
    void store(Map<DocumentHash, String> texts) {
        if (texts.isEmpty()) {
            return;
        }
        Set<DocumentHash> known = present(texts.keySet());
        List<Map.Entry<DocumentHash, String>> fresh = texts.entrySet().stream()
                .filter(e -> !known.contains(e.getKey())).toList();
        if (fresh.isEmpty()) {
            return;
        }
        jdbc.prepare("INSERT INTO enforcement_documents (sha256, body) VALUES (?, ?) ON CONFLICT DO NOTHING", ps -> {
            for (Map.Entry<DocumentHash, String> e : fresh) {
                ps.setString(1, e.getKey().hex());
                ps.setString(2, e.getValue());
                ps.addBatch();
            }
            return ps.executeBatch();
        });
    }

    /** The stored texts of {@code hashes} (absent ones are left out). */
    Map<DocumentHash, String> texts(Collection<DocumentHash> hashes) {
        Map<DocumentHash, String> out = new HashMap<>();
        if (hashes.isEmpty()) {
            return out;
        }
        jdbc.prepare("SELECT sha256, body FROM enforcement_documents WHERE sha256 = ANY (?)", ps -> {
            ps.setArray(1, array(ps.getConnection(), hashes));
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(new DocumentHash(rs.getString(1)), rs.getString(2));
                }
            }
            return null;
        });
        return out;
    }

    private Set<DocumentHash> present(Collection<DocumentHash> hashes) {
        return jdbc.prepare("SELECT sha256 FROM enforcement_documents WHERE sha256 = ANY (?)", ps -> {
            ps.setArray(1, array(ps.getConnection(), hashes));
            Set<DocumentHash> out = new java.util.HashSet<>();
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new DocumentHash(rs.getString(1)));
                }
            }
            return out;
        });
    }

    private static Array array(java.sql.Connection c, Collection<DocumentHash> hashes) throws java.sql.SQLException {
        return c.createArrayOf("text", hashes.stream().map(DocumentHash::hex).collect(Collectors.toSet()).toArray());
    }
}
