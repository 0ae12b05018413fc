package dev.stockade.pii.internal;

import dev.stockade.pii.PiiType;
import dev.stockade.pii.ScanBudget;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;

/**
 * Runs the recognisers of the selected types over a text in overlapping windows and resolves overlaps: a
 * higher-priority type wins (EMAIL, CREDIT_CARD, PHONE, ADDRESS, LOCATION, PERSON), then the longer span.
 * Immutable and thread-safe; checks for interruption between windows so a timed-out request stops working.
 */
public final class Detector {

    // A town in postal position after a street line beats a person's name read from the same word.
    private static final List<PiiType> PRIORITY = List.of(PiiType.EMAIL, PiiType.CREDIT_CARD, PiiType.PHONE,
            PiiType.ADDRESS, PiiType.LOCATION, PiiType.PERSON);

    private final List<Recognizer> recognizers;
    private final Set<PiiType> types;

    private Detector(List<Recognizer> recognizers, Set<PiiType> types) {
        this.recognizers = List.copyOf(recognizers);
        this.types = Set.copyOf(types);
    }

    /** A detector for {@code types}; PERSON and LOCATION use the shipped gazetteers and part-of-speech model. */
    public static Detector forTypes(Set<PiiType> types) {
        List<Recognizer> rs = new ArrayList<>();
        if (types.contains(PiiType.EMAIL)) {
            rs.add(new EmailRecognizer());
        }
        if (types.contains(PiiType.CREDIT_CARD)) {
            rs.add(new CardRecognizer());
        }
        if (types.contains(PiiType.PHONE)) {
            rs.add(new PhoneRecognizer(List.of("US", "GB", "DE", "FR", "IN")));
        }
        if (types.contains(PiiType.ADDRESS)) {
            rs.add(new AddressRecognizer());
        }
        boolean persons = types.contains(PiiType.PERSON);
        boolean places = types.contains(PiiType.LOCATION);
        if (persons || places) {
            rs.add(new NameRecognizer(Lexicon.gazetteer(), Lexicon.tagger(), persons, places));
        }
        return new Detector(rs, types.isEmpty() ? EnumSet.noneOf(PiiType.class) : EnumSet.copyOf(types));
    }

    /** Findings in {@code text}, resolved, sorted by start. */
    public List<Span> detect(String text, ScanBudget budget) {
        List<Span> found = new ArrayList<>();
        int core = budget.windowChars();
        for (int start = 0; start < text.length(); start += core) {
            if (Thread.currentThread().isInterrupted()) {
                throw new CancellationException("masking interrupted");
            }
            int end = Math.min(text.length(), start + core + budget.windowOverlap());
            String window = text.substring(start, end);
            List<Span> local = new ArrayList<>();
            for (Recognizer r : recognizers) {
                r.find(window, local);
            }
            boolean last = end == text.length();
            for (Span s : local) {
                if ((last || s.start() < core) && types.contains(s.type())) {
                    found.add(s.shift(start));
                }
            }
        }
        return resolve(found);
    }

    static List<Span> resolve(List<Span> found) {
        List<Span> ordered = new ArrayList<>(found);
        ordered.sort(Comparator.comparingInt((Span s) -> PRIORITY.indexOf(s.type()))
                .thenComparing(Comparator.comparingInt(Span::length).reversed())
                .thenComparingInt(Span::start));
        List<Span> kept = new ArrayList<>();
        for (Span s : ordered) {
            if (kept.stream().noneMatch(s::overlaps)) {
                kept.add(s);
            }
        }
        kept.sort(Comparator.comparingInt(Span::start));
        return kept;
    }
}
