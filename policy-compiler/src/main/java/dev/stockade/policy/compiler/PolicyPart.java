package dev.stockade.policy.compiler;

import dev.stockade.policy.compiler.internal.IndexedEntries;
import dev.stockade.policy.model.Policy;
import java.util.Objects;

/**
 * One policy document's part of every resolution it takes part in, prepared once: its domain entries parsed and
 * indexed. An enforcement point that follows many sandboxes sharing documents keeps one part per document (by content
 * hash) and resolves each sandbox's list with {@link Resolver#resolveParts}, so a change of one document prepares only
 * that document again and each sandbox pays only the merge. Immutable and safe to share between threads.
 */
public final class PolicyPart {
    private final IndexedEntries entries;

    private PolicyPart(IndexedEntries entries) {
        this.entries = entries;
    }

    /** The part of {@code policy} (expected valid, as {@link Resolver#resolve} expects its policies). */
    public static PolicyPart of(Policy policy) {
        return new PolicyPart(IndexedEntries.of(Objects.requireNonNull(policy, "policy")));
    }

    /** The policy this part was prepared from. */
    public Policy policy() {
        return entries.policy();
    }

    IndexedEntries entries() {
        return entries;
    }

    @Override
    public String toString() {
        return "PolicyPart[" + policy().name() + "]";
    }
}
