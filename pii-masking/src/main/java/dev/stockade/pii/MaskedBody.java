package dev.stockade.pii;

import java.util.List;
import java.util.Map;

/**
 * A masked request body, ready to send upstream, with what the proxy needs afterwards: the restorer for the
 * answer (it restores nothing when {@code unmaskResponses} is off), the truncations to report, and how many
 * values of each type were masked (for the audit line; never the values).
 */
public record MaskedBody(byte[] body, Restorer restorer, List<Truncation> truncations, Map<PiiType, Integer> masked) {

    public MaskedBody {
        truncations = List.copyOf(truncations);
        masked = Map.copyOf(masked);
    }
}
