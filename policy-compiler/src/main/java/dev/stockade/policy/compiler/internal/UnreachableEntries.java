package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.HostPort;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds, for each entry of one policy, the first earlier entry that covers every host it names (so it can
 * never match): in time near-linear in the entries. Earlier entries are indexed by what they could cover
 * with: their text, their exact name, their {@code *.suffix}, and (for in-label wildcards, which can cover
 * only an exact name) their literal label suffix. Only that last case compares pairs, under a bound of
 * {@link #MAX_GLOB_CHECKS}; past it, the remaining in-label wildcards are not consulted and
 * {@link #complete()} says so.
 */
public final class UnreachableEntries {
    /** Most in-label wildcard matches one policy's check may run. */
    public static final int MAX_GLOB_CHECKS = 1_000_000;

    private final Map<String, Integer> byText = new HashMap<>();
    private final Map<String, Integer> exact = new HashMap<>();
    private final Map<String, Integer> suffix = new HashMap<>();
    private final Map<String, List<Integer>> generalBySuffix = new HashMap<>();
    private final List<DomainPattern> patterns;
    private int globChecks;
    private boolean complete = true;

    private UnreachableEntries(List<DomainPattern> patterns) {
        this.patterns = patterns;
    }

    /** For each entry, the index of the first earlier entry covering it, or -1. */
    public static UnreachableEntries of(List<DomainPattern> patterns, int[] coveredBy) {
        UnreachableEntries u = new UnreachableEntries(patterns);
        for (int i = 0; i < patterns.size(); i++) {
            DomainPattern p = patterns.get(i);
            coveredBy[i] = p.kind() == DomainPattern.Kind.INVALID ? -1 : u.firstCovering(p);
            u.add(p, i);
        }
        return u;
    }

    /** Whether every in-label wildcard was consulted (false once {@link #MAX_GLOB_CHECKS} was reached). */
    public boolean complete() {
        return complete;
    }

    private void add(DomainPattern p, int i) {
        if (p.kind() == DomainPattern.Kind.INVALID) {
            return;
        }
        byText.putIfAbsent(key(p.hostText(), p.port()), i);
        switch (p.kind()) {
            case EXACT -> exact.putIfAbsent(key(p.literal(), p.port()), i);
            case SUFFIX -> suffix.putIfAbsent(key(p.literal(), p.port()), i);
            default -> generalBySuffix.computeIfAbsent(String.join(".", p.literalSuffix()), k -> new ArrayList<>())
                    .add(i);
        }
    }

    /** Entries naming a port are keyed by text and port, so only those on the later entry's port are found. */
    private static String key(String text, int port) {
        // a space, which no host holds: `[2001:db8::1]:8443` must not meet the bare address `2001:db8::1:8443`
        return port == HostPort.ANY ? text : text + " " + port;
    }

    private int firstCovering(DomainPattern later) {
        int best = candidate(Integer.MAX_VALUE, byText, later.hostText(), later);
        best = candidate(best, suffix, "", later);
        if (later.kind() == DomainPattern.Kind.GENERAL) {
            return best == Integer.MAX_VALUE ? -1 : best;
        }
        String name = later.literal();
        if (later.kind() == DomainPattern.Kind.EXACT) {
            best = candidate(best, exact, name, later);
        }
        for (String tail = name; ; ) {
            // *.tail covers an exact name below tail, and a *.suffix at or below tail.
            if (later.kind() == DomainPattern.Kind.SUFFIX || !tail.equals(name)) {
                best = candidate(best, suffix, tail, later);
            }
            if (later.kind() == DomainPattern.Kind.EXACT) {
                best = general(best, generalBySuffix.get(tail), later);
            }
            int dot = tail.indexOf('.');
            if (dot < 0) {
                break;
            }
            tail = tail.substring(dot + 1);
        }
        if (later.kind() == DomainPattern.Kind.EXACT) {
            best = general(best, generalBySuffix.get(""), later);
        }
        return best == Integer.MAX_VALUE ? -1 : best;
    }

    /** The earlier entry keyed by {@code text} on every port or on the later entry's port, if it covers. */
    private int candidate(int best, Map<String, Integer> map, String text, DomainPattern later) {
        best = candidate(best, map.get(text), later);
        return later.port() == HostPort.ANY ? best : candidate(best, map.get(key(text, later.port())), later);
    }

    private int candidate(int best, Integer j, DomainPattern later) {
        if (j == null || j >= best || !DomainPattern.covers(patterns.get(j), List.of(later))) {
            return best;
        }
        return j;
    }

    /** The earliest in-label wildcard of {@code list} (ascending) before {@code best} that covers. */
    private int general(int best, List<Integer> list, DomainPattern later) {
        if (list == null) {
            return best;
        }
        for (int j : list) {
            if (j >= best) {
                return best;
            }
            if (++globChecks > MAX_GLOB_CHECKS) {
                complete = false;
                return best;
            }
            if (DomainPattern.covers(patterns.get(j), List.of(later))) {
                return j;
            }
        }
        return best;
    }
}
