package dev.stockade.policy.graphql;

import dev.stockade.policy.graphql.internal.AnalysisCache;

/**
 * Where fence sets keep the documents they have parsed: clients send the same query text again and again
 * with other variables, so a parse is reused. Owned by whoever builds the fence sets (one per compiled
 * program by default, one per tenant in a multi-tenant host), with an explicit memory bound; never
 * JVM-wide. Thread-safe.
 */
public final class GraphqlDocumentCache {
    /** The default bound of one cache: 64 MiB of estimated kept syntax trees. */
    public static final long DEFAULT_MAX_BYTES = 64L << 20;

    private final AnalysisCache store;
    private final long maxBytes;

    private GraphqlDocumentCache(long maxBytes) {
        this.store = new AnalysisCache(maxBytes);
        this.maxBytes = maxBytes;
    }

    /**
     * A cache keeping at most about {@code maxBytes} of parsed documents (a kept syntax tree is weighed at
     * 32 bytes per character of query text plus 1 KB); {@code 0} keeps none.
     */
    public static GraphqlDocumentCache bounded(long maxBytes) {
        return new GraphqlDocumentCache(maxBytes);
    }

    /** A cache that keeps nothing: every request's query text is parsed. */
    public static GraphqlDocumentCache none() {
        return new GraphqlDocumentCache(0);
    }

    /** The bound this cache was made with. */
    public long maxBytes() {
        return maxBytes;
    }

    /** How many documents the cache keeps now. */
    public long size() {
        return store.size();
    }

    AnalysisCache store() {
        return store;
    }
}
