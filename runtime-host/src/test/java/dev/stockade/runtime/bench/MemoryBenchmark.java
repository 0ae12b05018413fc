package dev.stockade.runtime.bench;

import dev.stockade.runtime.agent.BagOfWords;
import dev.stockade.runtime.agent.Memory;
import dev.stockade.runtime.agent.VectorRecall;
import dev.stockade.runtime.provider.Embedder;
import dev.stockade.runtime.store.Store;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.Random;

/**
 * Memory search over N entries in a real SQLite file: full text (Lucene BM25) plus the in-memory vector
 * index, fused; then the vector index's recall against exact cosine. The vectors come from a bag-of-words
 * stand-in for the embedding deployment (a service outside this machine); text is drawn from a fixed
 * vocabulary so full-text queries have real hits and similar texts have similar vectors.
 *
 * <p>Usage: {@code MemoryBenchmark <entries> <queries>}
 */
public final class MemoryBenchmark {
    private static final String[] WORDS = ("deploy build release incident alert customer invoice checkout cart "
            + "payment latency database backup rotate key token secret team meeting standup roadmap vision "
            + "onboarding policy proxy sandbox agent memory tea coffee monday friday weekly monthly").split(" ");

    private MemoryBenchmark() {
    }

    /** The bag-of-words stand-in for the embedding deployment: texts sharing words embed near each other. */
    static final class WordsEmbedder implements Embedder {
        private final BagOfWords bag = new BagOfWords(DIMENSIONS);

        @Override
        public float[] embed(String text) {
            return bag.embed(text);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int queries = Integer.parseInt(args[1]);
        Path dir = Files.createTempDirectory("mem-bench");
        WordsEmbedder embedder = new WordsEmbedder();
        Random r = new Random(42);
        try (Store store = Store.open(dir.resolve("agent.db"))) {
            long t0 = System.nanoTime();
            store.tx(c -> {
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO memory (content, embedding, created_at) VALUES (?,?,'2026-11-23T00:00:00Z')")) {
                    for (int i = 0; i < n; i++) {
                        String text = sentence(r, i);
                        ps.setString(1, text);
                        ps.setBytes(2, bytes(embedder.embed(text)));
                        ps.addBatch();
                        if (i % 1000 == 999) {
                            ps.executeBatch();
                        }
                    }
                    ps.executeBatch();
                }
                return null;
            });
            System.out.printf("loaded %d entries in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
            Memory memory = new Memory(store, embedder);
            long b0 = System.nanoTime();
            memory.search("warm up", 5); // builds the in-memory index from the table
            System.out.printf("index built on first search in %.0f ms%n", (System.nanoTime() - b0) / 1e6);
            Memory textOnly = new Memory(store, null);
            report("full text only (no embeddings)", textOnly, r, queries);
            report("full text + vectors, fused", memory, r, queries);
        }
        RuntimeBenchmark.removeTree(dir);
        recall(n, r);
    }

    /** Recall@20 of the vector index alone against exact cosine over the same texts' full vectors. */
    private static void recall(int n, Random r) {
        WordsEmbedder embedder = new WordsEmbedder();
        Random texts = new Random(42);
        String[] all = new String[n];
        for (int i = 0; i < n; i++) {
            all[i] = sentence(texts, i);
        }
        VectorRecall recall = new VectorRecall(n, Embedder.DIMENSIONS, i -> embedder.embed(all[i]));
        double sum = 0;
        int queries = 50;
        for (int q = 0; q < queries; q++) {
            sum += recall.recall(embedder.embed(query(r)), 20);
        }
        System.out.printf("vector recall@20 over %d entries (ties within %.3f count): %.3f%n", n, VectorRecall.TIE,
                sum / queries);
    }

    private static void report(String name, Memory memory, Random r, int queries) throws Exception {
        for (int i = 0; i < queries / 2; i++) {
            memory.search(query(r), 5);
        }
        long[] t = new long[queries];
        for (int i = 0; i < queries; i++) {
            String q = query(r);
            long s = System.nanoTime();
            memory.search(q, 5);
            t[i] = System.nanoTime() - s;
        }
        Arrays.sort(t);
        System.out.printf("%-34s %d queries: p50 %.1f ms, p90 %.1f, p99 %.1f, max %.1f%n", name, queries,
                t[queries / 2] / 1e6, t[(int) (queries * 0.9)] / 1e6, t[(int) Math.ceil(queries * 0.99) - 1] / 1e6,
                t[queries - 1] / 1e6);
    }

    /** Twelve words: two from the topic list, ten from a 5,000-word synthetic vocabulary (Zipf-like). */
    /** A topic word and two vocabulary words, as a user might ask. */
    private static String query(Random r) {
        return WORDS[r.nextInt(WORDS.length)] + " w" + (int) Math.floor(Math.pow(5000, r.nextDouble())) + " w"
                + (int) Math.floor(Math.pow(5000, r.nextDouble()));
    }

    private static String sentence(Random r, int i) {
        StringBuilder sb = new StringBuilder("note ").append(i);
        for (int w = 0; w < 2; w++) {
            sb.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
        }
        for (int w = 0; w < 10; w++) {
            sb.append(" w").append((int) Math.floor(Math.pow(5000, r.nextDouble())));
        }
        return sb.toString();
    }

    private static byte[] bytes(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        return b.array();
    }
}
