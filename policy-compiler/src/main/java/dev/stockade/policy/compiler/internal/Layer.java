package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.eval.EntryRef;
import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One policy's domain entries, parsed once, with a first-match lookup for a single host. */
final class Layer {
    final Policy policy;
    final boolean ceiling;
    final List<DomainEntry> entries;
    final List<DomainPattern> patterns;
    private final Map<String, Integer> exactFirst = new HashMap<>();
    /** {@code *.suffix} entries: suffix to the lowest index ({@code ""} for a bare {@code *}). */
    private final Map<String, Integer> suffixFirst = new HashMap<>();
    /** Entries with {@code *} inside a label (or invalid), scanned in order. */
    private final List<Integer> general = new ArrayList<>();

    Layer(Policy policy, boolean ceiling) {
        this.policy = policy;
        this.ceiling = ceiling;
        this.entries = policy.domains();
        this.patterns = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            DomainPattern p = DomainPattern.parse(entries.get(i).pattern());
            patterns.add(p);
            if (p.kind() == DomainPattern.Kind.EXACT) {
                exactFirst.putIfAbsent(p.literal(), i);
            } else if (p.kind() == DomainPattern.Kind.SUFFIX) {
                suffixFirst.putIfAbsent(p.literal(), i);
            } else if (p.kind() == DomainPattern.Kind.GENERAL) {
                general.add(i);
            }
        }
    }

    private int suffixCandidate(String suffix) {
        Integer i = suffixFirst.get(suffix);
        return i == null ? Integer.MAX_VALUE : i;
    }

    EntryRef ref(int index) {
        return new EntryRef(policy.name(), index, ceiling);
    }

    /** Index of the first entry matching the normalised host, or -1. */
    int firstMatch(String host) {
        Integer exact = exactFirst.get(host);
        int best = exact == null ? Integer.MAX_VALUE : exact;
        if (!suffixFirst.isEmpty() && patterns.size() > 0) {
            // Every proper suffix of the host (and "" for a bare *) may name a wildcard entry.
            best = Math.min(best, suffixCandidate(""));
            for (int dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
                best = Math.min(best, suffixCandidate(host.substring(dot + 1)));
            }
            if (best != Integer.MAX_VALUE && !patterns.get(best).matches(host)) {
                best = exact == null ? Integer.MAX_VALUE : exact; // e.g. an IP literal: wildcards never match
            }
        }
        for (int i : general) {
            if (i >= best) {
                break;
            }
            if (patterns.get(i).matches(host)) {
                best = i;
                break;
            }
        }
        return best == Integer.MAX_VALUE ? -1 : best;
    }
}
