package dev.stockade.pii.eval;

import dev.stockade.pii.PiiType;
import dev.stockade.pii.ScanBudget;
import dev.stockade.pii.internal.Detector;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Prints precision, recall and F1 per type on the shipped evaluation set, the engine beside the regex-only
 * baseline, and PERSON/LOCATION recall on names the gazetteers hold versus names held out of them.
 * {@code ./mvnw -B -q -pl pii-masking test-compile exec:java}
 */
public final class EvaluationReport {

    private EvaluationReport() {
    }

    /** The engine with every type, as the evaluation runs it. */
    public static Function<String, List<GoldSpan>> engine() {
        Detector detector = Detector.forTypes(EnumSet.allOf(PiiType.class));
        return text -> detector.detect(text, ScanBudget.DEFAULT).stream()
                .map(s -> new GoldSpan(s.start(), s.end(), s.type())).toList();
    }

    public static void main(String[] args) {
        List<EvalExample> all = EvalSet.load();
        if (args.length == 2 && args[0].equals("--errors")) {
            printErrors(all, PiiType.valueOf(args[1]));
            return;
        }
        Scores engine = Scores.of(all, engine());
        Scores baseline = Scores.of(all, RegexBaseline::detect);
        System.out.printf("evaluation set: %d texts, %d labelled values%n", all.size(),
                all.stream().mapToInt(e -> e.spans().size()).sum());
        System.out.println("| type | engine P | engine R | engine F1 | regex P | regex R | regex F1 | labelled |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (PiiType t : PiiType.values()) {
            Scores.Count e = engine.count(t);
            Scores.Count b = baseline.count(t);
            System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %d |%n", t, e.precision(),
                    e.recall(), e.f1(), b.precision(), b.recall(), b.f1(), e.truePositives() + e.falseNegatives());
        }
        System.out.println();
        System.out.println("| source | texts | PERSON P | PERSON R | LOCATION P | LOCATION R | other types F1 |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (String source : List.of("handwritten", "handwritten-blind", "generated-known", "generated-heldout")) {
            List<EvalExample> part = all.stream().filter(e -> e.source().equals(source)).toList();
            Scores s = Scores.of(part, engine());
            Scores.Count person = s.count(PiiType.PERSON);
            Scores.Count place = s.count(PiiType.LOCATION);
            System.out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |%n", source, part.size(),
                    person.precision(), person.recall(), place.precision(), place.recall(), s.regexTypesF1());
        }
    }

    /** Lists the misses and false alarms of one type, for whoever improves a recogniser. */
    private static void printErrors(List<EvalExample> all, PiiType type) {
        Function<String, List<GoldSpan>> detector = engine();
        for (EvalExample e : all) {
            List<GoldSpan> found = detector.apply(e.text());
            for (GoldSpan g : e.spans()) {
                if (g.type() == type && found.stream().noneMatch(p -> Scores.matches(g, p))) {
                    System.out.println("MISS  " + e.id() + " [" + e.text().substring(g.start(), g.end()) + "]");
                }
            }
            for (GoldSpan p : found) {
                if (p.type() == type && e.spans().stream().noneMatch(g -> Scores.matches(g, p))) {
                    int from = Math.max(0, p.start() - 30);
                    System.out.println("FALSE " + e.id() + " [" + e.text().substring(p.start(), p.end()) + "] in ..."
                            + e.text().substring(from, Math.min(e.text().length(), p.end() + 20)).replace('\n', ' '));
                }
            }
        }
    }
}
