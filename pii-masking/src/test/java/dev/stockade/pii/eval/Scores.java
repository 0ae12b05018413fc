package dev.stockade.pii.eval;

import dev.stockade.pii.PiiType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Precision, recall and F1 per type. A prediction matches a labelled span of the same type when they overlap
 * by at least half the longer of the two; each labelled span is matched at most once.
 */
public final class Scores {

    /** Counts of one type. */
    public record Count(int truePositives, int falsePositives, int falseNegatives) {
        public double precision() {
            int p = truePositives + falsePositives;
            return p == 0 ? 1.0 : (double) truePositives / p;
        }

        public double recall() {
            int g = truePositives + falseNegatives;
            return g == 0 ? 1.0 : (double) truePositives / g;
        }

        public double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }
    }

    private final Map<PiiType, int[]> counts = new EnumMap<>(PiiType.class);

    /** Scores {@code detector} on {@code examples}. */
    public static Scores of(List<EvalExample> examples, Function<String, List<GoldSpan>> detector) {
        Scores s = new Scores();
        for (EvalExample e : examples) {
            s.add(e.spans(), detector.apply(e.text()));
        }
        return s;
    }

    void add(List<GoldSpan> gold, List<GoldSpan> predicted) {
        List<GoldSpan> open = new ArrayList<>(gold);
        for (GoldSpan p : predicted) {
            GoldSpan hit = open.stream().filter(g -> matches(g, p)).findFirst().orElse(null);
            if (hit != null) {
                open.remove(hit);
                bump(p.type(), 0);
            } else {
                bump(p.type(), 1);
            }
        }
        open.forEach(g -> bump(g.type(), 2));
    }

    static boolean matches(GoldSpan g, GoldSpan p) {
        int overlap = Math.min(g.end(), p.end()) - Math.max(g.start(), p.start());
        int longer = Math.max(g.end() - g.start(), p.end() - p.start());
        return g.type() == p.type() && overlap * 2 >= longer;
    }

    private void bump(PiiType type, int which) {
        counts.computeIfAbsent(type, t -> new int[3])[which]++;
    }

    /** F1 over EMAIL, PHONE, CREDIT_CARD and ADDRESS pooled. */
    public double regexTypesF1() {
        int tp = 0;
        int fp = 0;
        int fn = 0;
        for (PiiType t : List.of(PiiType.EMAIL, PiiType.PHONE, PiiType.CREDIT_CARD, PiiType.ADDRESS)) {
            Count c = count(t);
            tp += c.truePositives();
            fp += c.falsePositives();
            fn += c.falseNegatives();
        }
        return new Count(tp, fp, fn).f1();
    }

    public Count count(PiiType type) {
        int[] c = counts.getOrDefault(type, new int[3]);
        return new Count(c[0], c[1], c[2]);
    }
}
