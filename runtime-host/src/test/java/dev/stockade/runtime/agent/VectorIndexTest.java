package dev.stockade.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The quantised in-memory index finds what exact cosine similarity finds, and forgets deleted entries. */
class VectorIndexTest {
    private static float[] vec(Random r, int dims) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return v;
    }

    private static double cosine(float[] a, float[] b) {
        double s = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return s / Math.sqrt(na * nb);
    }

    @Test
    void nearestMatchesExactCosineOnSeededData() {
        Random r = new Random(7);
        int dims = 1024;
        float[][] stored = new float[400][];
        VectorIndex ix = new VectorIndex(dims);
        for (int i = 0; i < stored.length; i++) {
            stored[i] = vec(r, dims);
            ix.add(i + 1, stored[i]);
        }
        for (int q = 0; q < 50; q++) {
            // A query near a stored vector: that vector must come first, as exact cosine says.
            int target = r.nextInt(stored.length);
            float[] query = stored[target].clone();
            for (int i = 0; i < dims; i++) {
                query[i] += (float) (0.3 * r.nextGaussian());
            }
            int best = 0;
            for (int i = 1; i < stored.length; i++) {
                if (cosine(query, stored[i]) > cosine(query, stored[best])) {
                    best = i;
                }
            }
            assertThat(ix.nearest(query, 3)[0]).isEqualTo(best + 1L);
        }
    }

    @Test
    void theSignBitPrefilterKeepsRecallHighOnEmbeddingsWithStructure() {
        // 20,000 entries: far more than the candidates scored exactly, so the prefilter decides.
        BagOfWords bag = new BagOfWords(1024);
        Random r = new Random(5);
        String[] texts = new String[20_000];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = BagOfWords.text(r, 12);
        }
        VectorRecall recall = new VectorRecall(texts.length, 1024, i -> bag.embed(texts[i]));
        double sum = 0;
        int queries = 40;
        for (int q = 0; q < queries; q++) {
            sum += recall.recall(bag.embed(BagOfWords.text(r, 3)), 20);
        }
        assertThat(sum / queries).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void removedEntriesAreNeverReturnedAndSlotsStayConsistent() {
        Random r = new Random(11);
        VectorIndex ix = new VectorIndex(8);
        float[][] v = new float[20][];
        for (int i = 0; i < v.length; i++) {
            v[i] = vec(r, 8);
            ix.add(i, v[i]);
        }
        for (int i = 0; i < v.length; i += 2) {
            ix.remove(i);
        }
        ix.remove(999);
        assertThat(ix.size()).isEqualTo(10);
        for (int i = 1; i < v.length; i += 2) {
            assertThat(ix.nearest(v[i], 1)[0]).isEqualTo(i);
        }
        assertThat(ix.nearest(v[0], 20)).hasSize(10).doesNotContain(0L, 2L, 4L);
        ix.add(3, v[3]); // re-adding an id overwrites in place
        assertThat(ix.size()).isEqualTo(10);
    }
}
