package dev.stockade.policy.graphql.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.policy.graphql.GraphqlLimits;

/**
 * Analysed documents by (limits, query text), bounded by an estimate of the memory they keep. A kept
 * syntax tree is weighed at 32 bytes per character of text plus 1 KB (measured allocation while parsing is
 * 160-300 bytes per character, most of it short-lived parser state); a kept deny at the text alone. The key
 * is the full text, compared with equals: no hash can collide into another document's verdict. One
 * instance per owner (a program, a tenant), never JVM-wide: one tenant's documents cannot evict another's.
 */
public final class AnalysisCache {
    private final Cache<Key, DocumentAnalysis> cache;

    private record Key(GraphqlLimits limits, String query) {
    }

    /** A cache of at most {@code maxBytes} (estimated); {@code 0} caches nothing. */
    public AnalysisCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("cache bound must not be negative");
        }
        this.cache = maxBytes == 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((Key key, DocumentAnalysis value) -> value.failed()
                        ? key.query().length() + 64
                        : (int) Math.min(Integer.MAX_VALUE, 32L * key.query().length() + 1024))
                .executor(Runnable::run) // maintenance on the caller's thread: no work handed to the common pool
                .build();
    }

    DocumentAnalysis get(String query, ParserSetup setup) {
        if (cache == null) {
            return DocumentAnalysis.analyse(query, setup);
        }
        return cache.get(new Key(setup.limits(), query), key -> DocumentAnalysis.analyse(query, setup));
    }

    /** Documents kept now (for tests and metrics). */
    public long size() {
        if (cache == null) {
            return 0;
        }
        cache.cleanUp();
        return cache.estimatedSize();
    }
}
