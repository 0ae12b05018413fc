package dev.stockade.proxy.feed;

import java.util.Optional;

/**
 * Where a follower gets a document it was not sent or no longer holds, by its hash: the platform's
 * {@code GET /v1/egress/documents/{sha256}} for a replica, the database for the platform's own proxy. Empty when the
 * document cannot be had; the follower then denies everything for the sandboxes listing it.
 */
@FunctionalInterface
public interface DocumentFetch {
    /** Nothing can be fetched: a follower fed only whole documents. */
    DocumentFetch NONE = hash -> Optional.empty();

    /** The text of the document {@code hash} names, or empty; never throws for an unreachable source. */
    Optional<String> fetch(DocumentHash hash);
}
