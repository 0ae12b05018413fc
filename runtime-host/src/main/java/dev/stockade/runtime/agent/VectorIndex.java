package dev.stockade.runtime.agent;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Memory's vectors in RAM for exact nearest-neighbour search: each vector normalised and quantised to
 * one signed byte per dimension (1 KiB per entry at 1024 dimensions, 100 MiB for 100,000 entries), in one
 * contiguous array scanned with an integer dot product. SQLite keeps the full-precision vectors; this is
 * rebuilt from them at startup. Thread-safe through its own lock.
 */
final class VectorIndex {
    private final int dims;
    private byte[] data = new byte[0];
    private long[] ids = new long[0];
    private final Map<Long, Integer> slots = new HashMap<>();
    private int size;

    VectorIndex(int dims) {
        this.dims = dims;
    }

    synchronized void add(long id, float[] v) {
        Integer existing = slots.get(id);
        if (existing != null) { // built from the table while this entry was being written
            quantise(v, data, existing * dims);
            return;
        }
        if (size == ids.length) {
            int cap = Math.max(1024, size * 2);
            ids = Arrays.copyOf(ids, cap);
            data = Arrays.copyOf(data, cap * dims);
        }
        quantise(v, data, size * dims);
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
            ids[slot] = ids[last];
            slots.put(ids[slot], slot);
        }
        size--;
    }

    synchronized int size() {
        return size;
    }

    /** Ids of the {@code k} entries most similar to {@code query}, best first. */
    synchronized long[] nearest(float[] query, int k) {
        byte[] q = new byte[dims];
        quantise(query, q, 0);
        PriorityQueue<long[]> top = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        for (int s = 0; s < size; s++) {
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
