package dev.stockade.runtime.agent;

import dev.stockade.runtime.Log;
import dev.stockade.runtime.provider.Embedder;
import dev.stockade.runtime.provider.ProviderException;
import dev.stockade.runtime.store.Store;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Searchable memory: entries in SQLite with an FTS5 index and, when the embedding deployment works,
 * a 1024-dimension vector. Search fuses full-text and vector rankings (reciprocal rank fusion).
 * Embedding fails open: an entry whose embedding fails is stored unindexed, search falls back to full
 * text, and the failure is logged once.
 */
public final class Memory {
    /** A search hit. */
    public record Entry(long id, String content, double score) {
    }

    private static final int RRF_K = 60;
    private final Store store;
    private final Embedder embedder;
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile VectorIndex index;

    /** @param embedder {@code null} skips embeddings (an empty embedding model id) */
    public Memory(Store store, Embedder embedder) {
        this.store = store;
        this.embedder = embedder;
    }

    /** Stores an entry; returns its id. */
    public long write(String content) throws SQLException {
        float[] v = embed(content);
        byte[] vec = toBytes(v);
        long id = store.tx(c -> {
            Store.update(c, "INSERT INTO memory (content, embedding, created_at) VALUES (?,?,?)", content, vec,
                    Instant.now().toString());
            return Store.query(c, "SELECT last_insert_rowid()", rs -> rs.getLong(1)).get(0);
        });
        VectorIndex ix = index;
        if (v != null && ix != null) {
            ix.add(id, v);
        }
        return id;
    }

    public boolean delete(long id) throws SQLException {
        boolean deleted = store.update("DELETE FROM memory WHERE id = ?", id) > 0;
        VectorIndex ix = index;
        if (ix != null) {
            ix.remove(id);
        }
        return deleted;
    }

    public String get(long id) throws SQLException {
        return store.one("SELECT content FROM memory WHERE id = ?", rs -> rs.getString(1), id);
    }

    public int count() throws SQLException {
        return store.one("SELECT count(*) FROM memory", rs -> rs.getInt(1));
    }

    /** The best {@code limit} entries for {@code query}. */
    public List<Entry> search(String query, int limit) throws SQLException {
        Map<Long, Double> score = new HashMap<>();
        Map<Long, String> text = new LinkedHashMap<>();
        String fts = ftsQuery(query);
        if (!fts.isEmpty()) {
            List<Entry> hits = store.query("SELECT m.id, m.content FROM memory_fts f JOIN memory m ON m.id = f.rowid "
                    + "WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts) LIMIT ?",
                    rs -> new Entry(rs.getLong(1), rs.getString(2), 0), fts, limit * 4);
            fuse(hits, score, text);
        }
        float[] q = embed(query);
        if (q != null) {
            fuse(nearest(q, limit * 4), score, text);
        }
        return score.entrySet().stream().sorted(Map.Entry.<Long, Double>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).limit(limit)
                .map(e -> new Entry(e.getKey(), text.get(e.getKey()), e.getValue())).toList();
    }

    private static void fuse(List<Entry> ranked, Map<Long, Double> score, Map<Long, String> text) {
        for (int i = 0; i < ranked.size(); i++) {
            Entry e = ranked.get(i);
            score.merge(e.id(), 1.0 / (RRF_K + i + 1), Double::sum);
            text.putIfAbsent(e.id(), e.content());
        }
    }

    private List<Entry> nearest(float[] q, int k) throws SQLException {
        List<Entry> out = new ArrayList<>();
        for (long id : index().nearest(q, k)) {
            String content = get(id);
            if (content != null) {
                out.add(new Entry(id, content, 0));
            }
        }
        return out;
    }

    /** The in-memory index, built from the stored vectors on first use. */
    private VectorIndex index() throws SQLException {
        VectorIndex ix = index;
        if (ix == null) {
            synchronized (this) {
                if (index == null) {
                    VectorIndex built = new VectorIndex(Embedder.DIMENSIONS);
                    store.query("SELECT id, embedding FROM memory WHERE embedding IS NOT NULL", rs -> {
                        built.add(rs.getLong(1), fromBytes(rs.getBytes(2)));
                        return null;
                    });
                    index = built;
                }
                ix = index;
            }
        }
        return ix;
    }

    private float[] embed(String text) {
        if (embedder == null) {
            return null;
        }
        try {
            return embedder.embed(text);
        } catch (ProviderException e) {
            if (warned.compareAndSet(false, true)) {
                Log.warn("memory.embedding_unavailable", "detail", e.getMessage(),
                        "effect", "entries stored unindexed; search uses full text only");
            }
            return null;
        }
    }

    /** Words of the query as an OR of quoted FTS5 terms (no FTS syntax from the user reaches SQLite). */
    static String ftsQuery(String query) {
        List<String> terms = new ArrayList<>();
        for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty() && terms.size() < 32) {
                terms.add("\"" + w + "\"");
            }
        }
        return String.join(" OR ", terms);
    }

    private static byte[] toBytes(float[] v) {
        if (v == null) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        return b.array();
    }

    private static float[] fromBytes(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        float[] v = new float[bytes.length / 4];
        for (int i = 0; i < v.length; i++) {
            v[i] = b.getFloat();
        }
        return v;
    }
}
