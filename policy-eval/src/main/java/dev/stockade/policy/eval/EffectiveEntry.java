package dev.stockade.policy.eval;

import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;

/**
 * One row of an {@link EffectivePolicy}: the hosts matched by every pattern in {@code patterns}, and
 * what the merged, ceiling-clipped policies say about them. Rows keep first-match-wins order.
 *
 * @param patterns   conjunctive domain patterns, the narrowest first: a host belongs to the row when it
 *                   matches all of them (one pattern unless two wildcard patterns overlap partially)
 * @param verdict    the row's verdict before fences
 * @param transport  the transport of an allowed request, {@code null} on a deny
 * @param reason     on a deny: {@link ReasonCode#ENTRY_DENY} or {@link ReasonCode#CEILING_CLIPPED};
 *                   on an allow: {@link ReasonCode#ENTRY_ALLOW} or {@link ReasonCode#DEFAULT_ALLOW}
 *                   (no grant entry spoke, the grants' default allowed)
 * @param decidedBy  the component that decided a deny, or the primary grant component of an allow;
 *                   {@code null} when a default decided
 * @param components the entries that apply, grants first then ceiling, in policy order; on an
 *                   allowed row all of their fences apply together
 */
public record EffectiveEntry(
        List<String> patterns,
        Verdict verdict,
        Transport transport,
        ReasonCode reason,
        EntryRef decidedBy,
        List<EffectiveComponent> components) {

    /** Copies the patterns and components, so the row stays immutable. */
    public EffectiveEntry {
        patterns = List.copyOf(patterns);
        components = List.copyOf(components);
    }

    /** Whether the row can allow a request (its fences still apply). */
    public boolean allows() {
        return verdict == Verdict.ALLOW;
    }
}
