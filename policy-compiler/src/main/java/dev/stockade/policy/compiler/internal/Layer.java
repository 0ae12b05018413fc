package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.EntryRef;
import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import java.util.List;

/**
 * One policy in its role in one resolution (a grant, or part of the ceiling), over its entries parsed and indexed
 * once ({@link IndexedEntries}, which any number of resolutions share).
 */
final class Layer {
    final Policy policy;
    final boolean ceiling;
    final List<DomainEntry> entries;
    final List<DomainPattern> patterns;
    /** Whether some entry names a port: then a host on every port has no single first match. */
    final boolean hasPorts;
    private final IndexedEntries index;

    Layer(IndexedEntries index, boolean ceiling) {
        this.index = index;
        this.policy = index.policy;
        this.ceiling = ceiling;
        this.entries = index.entries;
        this.patterns = index.patterns;
        this.hasPorts = index.hasPorts;
    }

    EntryRef ref(int entry) {
        return component(entry).source();
    }

    EffectiveComponent component(int entry) {
        return index.component(entry, ceiling);
    }

    /** {@link IndexedEntries#firstMatch}: the first entry matching the host on {@code port}, or -1. */
    int firstMatch(String host, int port) {
        return index.firstMatch(host, port);
    }
}
