package dev.stockade.runtime.agent;

import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.provider.Embedder;
import dev.stockade.runtime.provider.ProviderException;
import dev.stockade.runtime.store.Store;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Searchable memory: entries in SQLite (the truth) with, when the embedding deployment works, a
 * 1024-dimension vector. Search fuses a full-text ranking (Lucene BM25) and a vector ranking (reciprocal
 * rank fusion); both indexes live in RAM, built from the table once ({@link #warm}, or the first search)
 * and kept in step with every write and delete. Embedding fails open: an entry whose embedding fails is
 * stored unindexed by vector, search falls back to full text, and the failure is logged once.
 */
public final class Memory {
    /** A search hit. */
    public record Entry(long id, String content, double score) {
    }

    /** The two in-memory indexes, built together from one read of the table. */
    private record Indexes(TextIndex text, VectorIndex vectors) {
    }

    private static final int RRF_K = 60;
    private final Store store;
    private final Embedder embedder;
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile Indexes indexes;

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
        // Under the build's lock: an index being built from a read that began before this commit gets the
        // entry after it; one built later reads it from the table.
        synchronized (this) {
            Indexes ix = indexes;
            if (ix != null) {
                ix.text().add(id, content, true);
                if (v != null) {
                    ix.vectors().add(id, v);
                }
            }
        }
        return id;
    }

    public boolean delete(long id) throws SQLException {
        boolean deleted = store.update("DELETE FROM memory WHERE id = ?", id) > 0;
        synchronized (this) {
            Indexes ix = indexes;
            if (ix != null) {
                ix.text().remove(id);
                ix.vectors().remove(id);
            }
        }
        return deleted;
    }

    public String get(long id) throws SQLException {
        return store.one("SELECT content FROM memory WHERE id = ?", rs -> rs.getString(1), id);
    }

    public int count() throws SQLException {
        return store.one("SELECT count(*) FROM memory", rs -> rs.getInt(1));
    }

    /** Builds the in-memory indexes now (the runtime calls this in the background at startup). */
    public void warm() throws SQLException {
        indexes();
    }

    /** The best {@code limit} entries for {@code query}. */
    public List<Entry> search(String query, int limit) throws SQLException {
        Indexes ix = indexes();
        Map<Long, Double> score = new HashMap<>();
        fuse(ix.text().search(query, limit * 4), score);
        float[] q = embed(query);
        if (q != null) {
            fuse(ix.vectors().nearest(q, limit * 4), score);
        }
        List<Map.Entry<Long, Double>> best = score.entrySet().stream().sorted(Map.Entry.<Long, Double>comparingByValue()
                .reversed().thenComparing(Map.Entry.comparingByKey())).limit(limit).toList();
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<Long, Double> e : best) {
            String content = get(e.getKey());
            if (content != null) {
                out.add(new Entry(e.getKey(), content, e.getValue()));
            }
        }
        return out;
    }

    private static void fuse(long[] ranked, Map<Long, Double> score) {
        for (int i = 0; i < ranked.length; i++) {
            score.merge(ranked[i], 1.0 / (RRF_K + i + 1), Double::sum);
        }
    }

    /** The in-memory indexes, built from the stored entries on first use. */
    private Indexes indexes() throws SQLException {
        Indexes ix = indexes;
        if (ix == null) {
            synchronized (this) {
                if (indexes == null) {
                    TextIndex text = new TextIndex();
                    VectorIndex vectors = new VectorIndex(Embedder.DIMENSIONS);
                    store.query("SELECT id, content, embedding FROM memory", rs -> {
                        text.add(rs.getLong(1), rs.getString(2), false);
                        byte[] e = rs.getBytes(3);
                        if (e != null) {
                            vectors.add(rs.getLong(1), fromBytes(e));
                        }
                        return null;
                    });
                    text.refresh();
                    indexes = new Indexes(text, vectors);
                }
                ix = indexes;
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
