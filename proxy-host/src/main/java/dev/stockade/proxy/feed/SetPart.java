package dev.stockade.proxy.feed;

/**
 * One entry of a set's grants or ceiling as the platform stores and the feed's wire 3 sends it: a document by its
 * content hash, or a shared list by name, whose documents the feed sends once per change ({@code shared} events) for
 * every set naming it. A shared policy's rewrite is then one list changed, not a thousand sets.
 */
public sealed interface SetPart {
    /** A document of this set alone (the sandbox's embedded policy), or any document named directly. */
    record Document(DocumentHash hash) implements SetPart {
    }

    /**
     * A shared list by name: {@code policy:<id>} (an attached policy's document) or {@code ceiling:<orgId>} (every org
     * policy, oldest first).
     */
    record Shared(String name) implements SetPart {
        public Shared {
            if (name == null || name.isEmpty() || name.length() > 200) {
                throw new IllegalArgumentException("a shared list's name is 1 to 200 characters");
            }
        }
    }

    /** The shared list an attached policy's document is published under. */
    static Shared policy(java.util.UUID policyId) {
        return new Shared("policy:" + policyId);
    }

    /** The shared list an organization's ceiling is published under. */
    static Shared ceiling(java.util.UUID orgId) {
        return new Shared("ceiling:" + orgId);
    }
}
