package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.EntryRef;
import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.HostPort;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One policy's domain entries parsed and indexed once, whatever role the policy plays: a grant's or the ceiling's
 * layer of any resolution reads the same instance, so a document shared by many sandboxes is parsed once, not once
 * per sandbox. Immutable after construction and safe to share between threads.
 */
public final class IndexedEntries {
    final Policy policy;
    final List<DomainEntry> entries;
    final List<DomainPattern> patterns;
    /** Whether some entry names a port: then a host on every port has no single first match. */
    final boolean hasPorts;
    private final Map<String, Integer> exactFirst = new HashMap<>();
    /** {@code *.suffix} entries: suffix to the lowest index ({@code ""} for a bare {@code *}). */
    private final Map<String, Integer> suffixFirst = new HashMap<>();
    /** Entries with {@code *} inside a label (or invalid), scanned in order. */
    private final List<Integer> general = new ArrayList<>();
    /** Entry {@code i} as a grant's component: every row a grant's entry speaks in names the same one. */
    private final EffectiveComponent[] asGrant;

    private IndexedEntries(Policy policy) {
        this.policy = policy;
        this.entries = policy.domains();
        List<DomainPattern> parsed = new ArrayList<>(entries.size());
        boolean ports = false;
        asGrant = new EffectiveComponent[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            DomainPattern p = DomainPattern.parse(entries.get(i).pattern());
            parsed.add(p);
            ports |= p.port() != HostPort.ANY;
            if (p.kind() == DomainPattern.Kind.EXACT) {
                exactFirst.putIfAbsent(key(p.literal(), p.port()), i);
            } else if (p.kind() == DomainPattern.Kind.SUFFIX) {
                suffixFirst.putIfAbsent(key(p.literal(), p.port()), i);
            } else if (p.kind() == DomainPattern.Kind.GENERAL) {
                general.add(i);
            }
            asGrant[i] = new EffectiveComponent(new EntryRef(policy.name(), i, false), entries.get(i));
        }
        this.patterns = List.copyOf(parsed);
        hasPorts = ports;
    }

    /** The entries of {@code policy}, parsed and indexed. */
    public static IndexedEntries of(Policy policy) {
        return new IndexedEntries(policy);
    }

    /** The policy these entries belong to. */
    public Policy policy() {
        return policy;
    }

    private static String key(String text, int port) {
        // a space, which no host holds: `[2001:db8::1]:8443` must not meet the bare address `2001:db8::1:8443`
        return port == HostPort.ANY ? text : text + " " + port;
    }

    /** The lowest entry keyed by {@code text} on every port or on {@code port}. */
    private static int lowest(Map<String, Integer> map, String text, int port) {
        Integer any = map.get(text);
        Integer on = port == HostPort.ANY ? null : map.get(key(text, port));
        return Math.min(any == null ? Integer.MAX_VALUE : any, on == null ? Integer.MAX_VALUE : on);
    }

    /** Entry {@code index} in the role of a grant ({@code ceiling == false}) or of the ceiling. */
    EffectiveComponent component(int index, boolean ceiling) {
        return ceiling ? new EffectiveComponent(new EntryRef(policy.name(), index, true), entries.get(index))
                : asGrant[index];
    }

    /**
     * Index of the first entry matching the normalised host on {@code port}, or -1. With
     * {@link HostPort#ANY}, entries naming a port are left out: the answer is the first match on every port
     * that no entry names.
     */
    int firstMatch(String host, int port) {
        int exact = lowest(exactFirst, host, port);
        int best = exact;
        if (!suffixFirst.isEmpty() && patterns.size() > 0) {
            // Every proper suffix of the host (and "" for a bare *) may name a wildcard entry.
            best = Math.min(best, lowest(suffixFirst, "", port));
            for (int dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
                best = Math.min(best, lowest(suffixFirst, host.substring(dot + 1), port));
            }
            if (best != Integer.MAX_VALUE && !patterns.get(best).matches(host)) {
                best = exact; // e.g. an IP literal: wildcards never match
            }
        }
        for (int i : general) {
            if (i >= best) {
                break;
            }
            if (patterns.get(i).matches(host, port)) {
                best = i;
                break;
            }
        }
        return best == Integer.MAX_VALUE ? -1 : best;
    }
}
