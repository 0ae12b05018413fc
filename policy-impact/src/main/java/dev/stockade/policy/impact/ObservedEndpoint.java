package dev.stockade.policy.impact;

import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What was allowed on one {@code host:port} (or on the hosts one wildcard stands for): schemes, listeners, methods
 * with their paths, callers. Accumulates while the trail streams in, then becomes one domain entry that admits all
 * of it and, by the documented rules, nothing more. Not thread-safe.
 */
final class ObservedEndpoint {
    private final Set<String> schemes = new TreeSet<>();
    private final Map<String, Set<String>> pathsByMethod = new TreeMap<>();
    private final Set<String> callers = new TreeSet<>();
    private final ObservedOperations operations = new ObservedOperations();
    private boolean requests;
    private boolean passthrough;
    private boolean anyCaller;
    private boolean unruleable;

    /** Counts one allowed egress decision. */
    void see(RecordedDecision.Egress e) {
        schemes.add(e.listener().scheme());
        passthrough |= e.listener() == EgressListener.PASSTHROUGH;
        seeCaller(e.caller());
        if (!e.listener().requestLevel()) {
            return;
        }
        requests = true;
        if (e.method() == null || !PathGeneralisation.representable(e.path())) {
            unruleable = true; // no path rule admits it (or admits it exactly): the entry keeps no rules
            return;
        }
        pathsByMethod.computeIfAbsent(e.method(), m -> new TreeSet<>()).add(e.path());
        operations.see(e.method(), e.path(), e.graphql());
    }

    /** A caller a {@code binaries} entry cannot hold is dropped later, with the fence, by the validator's word. */
    private void seeCaller(String caller) {
        if (caller == null) {
            anyCaller = true;
        } else {
            callers.add(caller);
        }
    }

    /** Everything {@code other} saw, added to this. */
    void absorb(ObservedEndpoint other) {
        schemes.addAll(other.schemes);
        other.pathsByMethod.forEach((m, paths) -> pathsByMethod.computeIfAbsent(m, k -> new TreeSet<>()).addAll(paths));
        callers.addAll(other.callers);
        operations.absorb(other.operations);
        requests |= other.requests;
        passthrough |= other.passthrough;
        anyCaller |= other.anyCaller;
        unruleable |= other.unruleable;
    }

    /** The allow entry for {@code pattern} (which carries the port) that admits everything seen. */
    DomainEntry entry(String pattern, int port, int minPaths) {
        String scheme = schemes.size() == 1 ? schemes.iterator().next() : null;
        if (scheme != null && (port == 443 && scheme.equals("http") || port == 80 && scheme.equals("https"))) {
            scheme = null; // the port already fences; the scheme would only draw lint's port-contradicts-scheme
        }
        // a passthrough connection was spliced, never intercepted: direct, unless requests were seen inside
        Transport transport = passthrough && !requests ? Transport.DIRECT : Transport.UPSTREAM;
        return new DomainEntry(pattern, Verdict.ALLOW, transport, scheme, null, rules(minPaths),
                anyCaller || callers.isEmpty() ? null : List.copyOf(callers));
    }

    /**
     * One rule per method and path glob, and graphql rules on a method and path whose every request carried the
     * operations the fence judged (kept exact, out of the prefix tree); none when only connections were seen or a
     * request cannot be written.
     */
    private List<Rule> rules(int minPaths) {
        if (!requests || unruleable || pathsByMethod.isEmpty()) {
            return null;
        }
        List<Rule> out = new ArrayList<>();
        List<Rule> fenced = new ArrayList<>();
        pathsByMethod.forEach((method, paths) -> {
            Set<String> plain = new TreeSet<>();
            for (String path : paths) {
                if (operations.fenced(method, path)) {
                    fenced.addAll(operations.rules(method, path));
                } else {
                    plain.add(path);
                }
            }
            PathGeneralisation.generalise(plain, minPaths).forEach(glob -> out.add(Rule.of(method, glob)));
        });
        out.addAll(fenced);
        return out;
    }
}
