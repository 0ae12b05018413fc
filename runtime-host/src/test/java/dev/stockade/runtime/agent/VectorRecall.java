package dev.stockade.runtime.agent;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * Recall of {@link VectorIndex#nearest} against exact cosine similarity over full-precision vectors: the
 * share of the true {@code k} nearest that the index returns. Used by the recall test and the memory
 * benchmark.
 */
public final class VectorRecall {
    /** Cosine difference within which two entries count as tied (the byte quantisation's error). */
    public static final double TIE = 0.005;
    private final VectorIndex index;
    private final float[][] stored;

    /** Indexes {@code n} vectors made by {@code vector} (ids 0..n-1) and keeps them for the exact answer. */
    public VectorRecall(int n, int dims, IntFunction<float[]> vector) {
        index = new VectorIndex(dims);
        stored = new float[n][];
        for (int i = 0; i < n; i++) {
            stored[i] = normalised(vector.apply(i));
            index.add(i, stored[i]);
        }
    }

    /**
     * Recall of the index's top {@code k} for {@code query}, from 0 to 1: the share of returned entries whose
     * exact cosine reaches the true k-th best within {@link #TIE}. Entries that tie with the k-th (many texts
     * share one query word) are all right answers; which of them an index returns is not a miss.
     */
    public double recall(float[] query, int k) {
        float[] q = normalised(query);
        double[] sims = new double[stored.length];
        for (int i = 0; i < stored.length; i++) {
            sims[i] = dot(q, stored[i]);
        }
        double[] sorted = sims.clone();
        Arrays.sort(sorted);
        double kth = sorted[sorted.length - k];
        long[] got = index.nearest(query, k);
        return (double) Arrays.stream(got).filter(id -> sims[(int) id] >= kth - TIE).count() / k;
    }

    public long[] nearest(float[] query, int k) {
        return index.nearest(query, k);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static float[] normalised(float[] v) {
        double n = Math.sqrt(dot(v, v));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / (n == 0 ? 1 : n));
        }
        return out;
    }
}
