package dev.stockade.bench;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The synthetic policies and requests every benchmark shares: {@code size} allow entries, 80% exact
 * names and 20% leading-label wildcards, and a fixed mix of requests (40% exact hits, 30% wildcard hits,
 * 30% misses), seeded so that every run sees the same data.
 */
final class Workload {
    static final int REQUESTS = 1024;

    final List<String> exact = new ArrayList<>();
    /** Suffixes of the wildcard entries, without the leading {@code *.}. */
    final List<String> suffixes = new ArrayList<>();
    final List<DomainEntry> entries = new ArrayList<>();
    final String[] hosts = new String[REQUESTS];
    final boolean[] expectAllow = new boolean[REQUESTS];

    /** Which classes of request the workload replays. */
    enum Traffic { MIXED, EXACT, WILDCARD, MISS }

    Workload(int size, boolean withRules) {
        this(size, withRules, Traffic.MIXED);
    }

    Workload(int size, boolean withRules, Traffic traffic) {
        Random random = new Random(42);
        for (int i = 0; i < size; i++) {
            DomainEntry e;
            if (i % 5 == 4) {
                String suffix = "zone" + i + ".example.net";
                suffixes.add(suffix);
                e = DomainEntry.allow("*." + suffix);
            } else {
                String name = "svc" + i + ".tenant" + (i % 97) + ".example.com";
                exact.add(name);
                e = DomainEntry.allow(name);
            }
            if (withRules) {
                e = e.withRules(List.of(Rule.of("GET", "/repos/*/pulls"), Rule.of("POST", "/repos/*/issues/**"),
                        Rule.of("GET", "/users/*")));
            }
            entries.add(e);
        }
        for (int k = 0; k < REQUESTS; k++) {
            int roll = switch (traffic) {
                case MIXED -> random.nextInt(10);
                case EXACT -> 0;
                case WILDCARD -> 5;
                case MISS -> 9;
            };
            if (roll < 4 && !exact.isEmpty()) {
                hosts[k] = exact.get(random.nextInt(exact.size()));
                expectAllow[k] = true;
            } else if (roll < 7 && !suffixes.isEmpty()) {
                hosts[k] = "api" + random.nextInt(100) + ".eu." + suffixes.get(random.nextInt(suffixes.size()));
                expectAllow[k] = true;
            } else {
                hosts[k] = "miss" + random.nextInt(100000) + ".tenant" + random.nextInt(97) + ".example.org";
            }
        }
    }

    /** The exact names, for the HashMap floor. */
    java.util.Map<String, Boolean> exactMap() {
        java.util.Map<String, Boolean> map = new java.util.HashMap<>();
        for (String e : exact) {
            map.put(e, Boolean.TRUE);
        }
        return map;
    }

    Policy policy() {
        return Policy.named("bench").withAllowedDomains(entries);
    }

    EgressRequest[] connections() {
        EgressRequest[] out = new EgressRequest[REQUESTS];
        for (int i = 0; i < REQUESTS; i++) {
            out[i] = EgressRequest.connection("https", hosts[i], 443, hosts[i], "/usr/bin/git");
        }
        return out;
    }

    /** Requests against the rules: alternately admitted by a rule and refused by all of them. */
    EgressRequest[] requests() {
        EgressRequest[] out = new EgressRequest[REQUESTS];
        for (int i = 0; i < REQUESTS; i++) {
            boolean hit = i % 2 == 0;
            String method = hit ? "GET" : "DELETE";
            String path = hit ? "/repos/acme/pulls" : "/repos/acme/issues/7";
            out[i] = new EgressRequest("https", hosts[i], 443, hosts[i], "/usr/bin/git", method, path, null, Map.of(),
                    null, false);
        }
        return out;
    }
}
