package dev.stockade.api.egress;

import dev.stockade.proxy.feed.DocumentHash;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The documents one feed has sent, most recent first, bounded: one forgotten is sent again, or the replica fetches it
 * by hash. About ten per sandbox of a proxy with ten thousand.
 */
final class SentDocuments {
    private static final int KEPT = 100_000;

    private final Map<DocumentHash, Boolean> sent = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<DocumentHash, Boolean> eldest) {
            return size() > KEPT;
        }
    };

    boolean has(DocumentHash hash) {
        return sent.containsKey(hash);
    }

    /** Records it; whether it was new (to be sent now). */
    boolean add(DocumentHash hash) {
        return sent.put(hash, Boolean.TRUE) == null;
    }
}
