package dev.stockade.runtime.agent;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Memory's vectors in RAM: each vector normalised and quantised to one signed byte per dimension (1 KiB
 * per entry at 1024 dimensions), plus its sign bits (128 bytes). A search first ranks every entry by the
 * Hamming distance of the sign bits (a popcount per 64 dimensions), then scores the closest
 * {@link #rescored} candidates exactly with the byte vectors; up to that many entries the search is exact.
 * SQLite keeps the full-precision vectors; this is rebuilt from them at startup. Thread-safe through its
 * own lock.
 */
final class VectorIndex {
    /** Candidates scored exactly, at least. */
    static final int MIN_CANDIDATES = 1000;
    private final int dims;
    private final int words;
    private byte[] data = new byte[0];
    private long[] signs = new long[0];
    private long[] ids = new long[0];
    private final Map<Long, Integer> slots = new HashMap<>();
    private int size;

    VectorIndex(int dims) {
        this.dims = dims;
        this.words = (dims + 63) / 64;
    }

    synchronized void add(long id, float[] v) {
        Integer existing = slots.get(id);
        if (existing != null) { // built from the table while this entry was being written
            quantise(v, data, existing * dims);
            signs(v, signs, existing * words);
            return;
        }
        if (size == ids.length) {
            int cap = Math.max(1024, size * 2);
            ids = Arrays.copyOf(ids, cap);
            data = Arrays.copyOf(data, cap * dims);
            signs = Arrays.copyOf(signs, cap * words);
        }
        quantise(v, data, size * dims);
        signs(v, signs, size * words);
        ids[size] = id;
        slots.put(id, size);
        size++;
    }

    synchronized void remove(long id) {
        Integer slot = slots.remove(id);
        if (slot == null) {
            return;
        }
        int last = size - 1;
        if (slot != last) {
            System.arraycopy(data, last * dims, data, slot * dims, dims);
            System.arraycopy(signs, last * words, signs, slot * words, words);
            ids[slot] = ids[last];
            slots.put(ids[slot], slot);
        }
        size--;
    }

    synchronized int size() {
        return size;
    }

    /** How many candidates a search for {@code k} scores exactly. */
    static int rescored(int k) {
        return Math.max(MIN_CANDIDATES, k * 50);
    }

    /** Ids of the {@code k} entries most similar to {@code query}, best first. */
    synchronized long[] nearest(float[] query, int k) {
        byte[] q = new byte[dims];
        quantise(query, q, 0);
        long[] qs = new long[words];
        signs(query, qs, 0);
        PriorityQueue<long[]> top = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        for (int s : candidates(qs, rescored(k))) {
            long score = dot(q, data, s * dims);
            if (top.size() < k) {
                top.add(new long[] {score, ids[s]});
            } else if (score > top.peek()[0]) {
                top.poll();
                top.add(new long[] {score, ids[s]});
            }
        }
        long[] out = new long[top.size()];
        for (int i = out.length - 1; i >= 0; i--) {
            out[i] = top.poll()[1];
        }
        return out;
    }

    /** The slots of (about) the {@code n} entries nearest by sign bits: every slot when there are few. */
    private int[] candidates(long[] qs, int n) {
        if (size <= n) {
            int[] all = new int[size];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int[] dist = new int[size];
        int[] histogram = new int[dims + 1];
        for (int s = 0; s < size; s++) {
            int d = 0;
            for (int w = 0, off = s * words; w < words; w++) {
                d += Long.bitCount(qs[w] ^ signs[off + w]);
            }
            dist[s] = d;
            histogram[d]++;
        }
        int cutoff = 0; // the smallest distance within which n entries lie
        int seen = histogram[0];
        while (seen < n) {
            cutoff++;
            seen += histogram[cutoff];
        }
        int below = seen - histogram[cutoff];
        int[] out = new int[n];
        int taken = 0;
        int atCutoff = n - below; // ties at the cutoff distance: as many as fill n, in slot order
        for (int s = 0; s < size && taken < n; s++) {
            if (dist[s] < cutoff || (dist[s] == cutoff && atCutoff-- > 0)) {
                out[taken++] = s;
            }
        }
        return out;
    }

    private void signs(float[] v, long[] out, int off) {
        Arrays.fill(out, off, off + words, 0L);
        for (int i = 0; i < dims; i++) {
            if (v[i] > 0) {
                out[off + i / 64] |= 1L << (i % 64);
            }
        }
    }

    private int dot(byte[] q, byte[] d, int off) {
        // Four independent sums: the adds of one step do not wait on each other (dims is a multiple of 4).
        int s0 = 0;
        int s1 = 0;
        int s2 = 0;
        int s3 = 0;
        for (int i = 0; i < dims; i += 4) {
            s0 += q[i] * d[off + i];
            s1 += q[i + 1] * d[off + i + 1];
            s2 += q[i + 2] * d[off + i + 2];
            s3 += q[i + 3] * d[off + i + 3];
        }
        return s0 + s1 + s2 + s3;
    }

    private void quantise(float[] v, byte[] out, int off) {
        double norm = 0;
        for (float f : v) {
            norm += f * f;
        }
        double scale = norm == 0 ? 0 : 127 / Math.sqrt(norm);
        for (int i = 0; i < dims; i++) {
            out[off + i] = (byte) Math.round(v[i] * scale);
        }
    }
}
