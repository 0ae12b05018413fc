package dev.stockade.api.enforcement;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.proxy.feed.DocumentHash;

/**
 * A sandbox's own (embedded) policy document as a set publishes it, last of its grants: none, its tree (hashed and
 * stored on publishing, and remembered with the set's revision), or the hash it was stored under at the sandbox's
 * current revision, so that re-publishing the sandbox after a shared policy changed needs neither its text nor its hash
 * computed again.
 */
public sealed interface OwnDocument {

    /** The sandbox has no embedded policy. */
    record None() implements OwnDocument {
    }

    /** The embedded policy as the sandbox's revision holds it. */
    record Tree(JsonNode json) implements OwnDocument {
    }

    /** The embedded policy, already stored under {@code hash} by an earlier publication of the same revision. */
    record Stored(DocumentHash hash) implements OwnDocument {
    }

    /** The own document of a configuration whose embedded policy is {@code embedded} (null: none). */
    static OwnDocument of(JsonNode embedded) {
        return embedded == null ? new None() : new Tree(embedded);
    }
}
