package dev.stockade.policy.eval;

import dev.stockade.policy.model.DomainEntry;

/**
 * One policy entry that applies to an effective row, as its author wrote it. On an allowed row every
 * component's scheme, caller fence and rules apply together (conjunction).
 */
public record EffectiveComponent(EntryRef source, DomainEntry entry) {
}
