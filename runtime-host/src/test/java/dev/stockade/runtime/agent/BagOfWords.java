package dev.stockade.runtime.agent;

import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in for an embedding deployment (a service outside this machine) whose vectors have the structure
 * real ones have: a text's vector is the sum of its words' fixed random vectors, so texts that share words
 * are near each other. Texts are drawn from a Zipf-like vocabulary.
 */
public final class BagOfWords {
    private final Map<String, float[]> words = new ConcurrentHashMap<>();
    private final int dims;

    public BagOfWords(int dims) {
        this.dims = dims;
    }

    public float[] embed(String text) {
        float[] v = new float[dims];
        for (String w : text.split("[^\\p{L}\\p{N}]+")) {
            float[] wv = words.computeIfAbsent(w, x -> {
                Random r = new Random(x.hashCode());
                float[] g = new float[dims];
                for (int i = 0; i < dims; i++) {
                    g[i] = (float) r.nextGaussian();
                }
                return g;
            });
            for (int i = 0; i < dims; i++) {
                v[i] += wv[i];
            }
        }
        return v;
    }

    /** {@code n} words {@code w1}..{@code w4999}, low numbers far more frequent. */
    public static String text(Random r, int n) {
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < n; w++) {
            sb.append(w == 0 ? "" : " ").append("w").append((int) Math.floor(Math.pow(5000, r.nextDouble())));
        }
        return sb.toString();
    }
}
