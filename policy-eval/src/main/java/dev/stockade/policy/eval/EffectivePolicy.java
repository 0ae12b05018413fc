package dev.stockade.policy.eval;

import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;

/**
 * The merged, ceiling-clipped domain policy of one agent, in the shape the decision program compiles:
 * ordered rows (first match wins) and what happens to a host no row matches.
 *
 * @param entries          the rows, first match wins
 * @param defaultVerdict   verdict for a host no row matches
 * @param defaultTransport transport when the default allows, {@code null} otherwise
 * @param defaultReason    {@link ReasonCode#DEFAULT_DENY}, {@link ReasonCode#DEFAULT_ALLOW} or
 *                         {@link ReasonCode#CEILING_CLIPPED}
 */
public record EffectivePolicy(
        List<EffectiveEntry> entries,
        Verdict defaultVerdict,
        Transport defaultTransport,
        ReasonCode defaultReason) {

    /** Copies the entries, so the policy stays immutable. */
    public EffectivePolicy {
        entries = List.copyOf(entries);
    }

    /** The policy that reaches nothing. */
    public static EffectivePolicy denyAll() {
        return new EffectivePolicy(List.of(), Verdict.DENY, null, ReasonCode.DEFAULT_DENY);
    }
}
