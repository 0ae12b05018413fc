package dev.stockade.pii;

import java.util.List;
import java.util.Map;

/** A masked text with its restorer, truncations and per-type counts; see {@link MaskedBody}. */
public record MaskedText(String text, Restorer restorer, List<Truncation> truncations, Map<PiiType, Integer> masked) {

    public MaskedText {
        truncations = List.copyOf(truncations);
        masked = Map.copyOf(masked);
    }
}
