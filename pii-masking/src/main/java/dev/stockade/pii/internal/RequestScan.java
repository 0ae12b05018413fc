package dev.stockade.pii.internal;

import dev.stockade.pii.PiiType;
import dev.stockade.pii.ScanBudget;
import dev.stockade.pii.Truncation;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The masking of one request: its placeholders, the budget it has left, what it truncated and how many values
 * of each type it masked. Fields are masked in document order, so the budget runs out at the end of the body.
 */
public final class RequestScan {

    private final Detector detector;
    private final ScanBudget budget;
    private final PlaceholderBook book = new PlaceholderBook();
    private final List<Truncation> truncations = new ArrayList<>();
    private final Map<PiiType, Integer> counts = new EnumMap<>(PiiType.class);
    private long remaining;

    public RequestScan(Detector detector, ScanBudget budget) {
        this.detector = detector;
        this.budget = budget;
        this.remaining = budget.maxCharsPerRequest();
    }

    /** {@code text} with every finding replaced by its placeholder, cut to the remaining budget if needed. */
    public String mask(String text, String pointer) {
        String kept = text;
        if (text.length() > remaining) {
            kept = text.substring(0, cutPoint(text, (int) remaining));
            truncations.add(new Truncation(pointer, text.length(), kept.length()));
            // INVARIANT: once a field is cut the budget is spent; a later field keeps nothing rather than a
            // few characters that could be the unrecognisable head of a value.
            remaining = 0;
        } else {
            remaining -= kept.length();
        }
        List<Span> spans = detector.detect(kept, budget);
        if (spans.isEmpty()) {
            return kept;
        }
        StringBuilder out = new StringBuilder(kept.length() + spans.size() * 16);
        int at = 0;
        for (Span s : spans) {
            out.append(kept, at, s.start()).append(book.placeholder(s.type(), kept.substring(s.start(), s.end())));
            counts.merge(s.type(), 1, Integer::sum);
            at = s.end();
        }
        return out.append(kept, at, kept.length()).toString();
    }

    // Cut at whitespace where one is near, so a value is not split into an unrecognisable, unmasked head;
    // never between the halves of a surrogate pair.
    private int cutPoint(String text, int limit) {
        int floor = Math.max(0, limit - budget.windowOverlap());
        for (int i = limit; i > floor; i--) {
            if (Character.isWhitespace(text.charAt(i - 1))) {
                return i - 1;
            }
        }
        return limit > 0 && Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
    }

    public PlaceholderBook book() {
        return book;
    }

    public List<Truncation> truncations() {
        return List.copyOf(truncations);
    }

    public Map<PiiType, Integer> counts() {
        return Map.copyOf(counts);
    }
}
