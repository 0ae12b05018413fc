package dev.stockade.policy.impact;

import com.google.common.net.InternetDomainName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The host rule of {@code policy suggest} (docs/policy-impact.md, "Suggest"): hosts stay exact unless at least
 * {@code minSubdomains} distinct hosts lie below one base, the longest label suffix they share and never above their
 * registrable domain as the Public Suffix List (ICANN and private sections, Guava's copy) draws it. So {@code *.com}
 * or {@code *.github.io} can never be suggested: a public suffix is never a base.
 */
final class HostGeneralisation {
    private HostGeneralisation() {
    }

    /** A wildcard made: its base and the hosts it stands for. */
    record Wildcard(String base, List<String> hosts) {
        String pattern() {
            return "*." + base;
        }
    }

    /** The registrable domain of {@code host} (lower case, no trailing dot), empty for an address or a suffix. */
    static Optional<String> registrable(String host) {
        if (!InternetDomainName.isValid(host)) {
            return Optional.empty();
        }
        InternetDomainName name = InternetDomainName.from(host);
        return name.isUnderPublicSuffix() ? Optional.of(name.topPrivateDomain().toString()) : Optional.empty();
    }

    /** Whether {@code domain} is itself on the Public Suffix List (either section). */
    static boolean publicSuffix(String domain) {
        return InternetDomainName.isValid(domain) && InternetDomainName.from(domain).isPublicSuffix();
    }

    /** The wildcards the rule makes over {@code hosts} (distinct names, lower case); hosts not listed stay exact. */
    static List<Wildcard> wildcards(Collection<String> hosts, int minSubdomains) {
        Map<String, List<String>> byDomain = new TreeMap<>();
        for (String host : hosts) {
            registrable(host).filter(d -> !d.equals(host))
                    .ifPresent(d -> byDomain.computeIfAbsent(d, k -> new ArrayList<>()).add(host));
        }
        List<Wildcard> out = new ArrayList<>();
        byDomain.forEach((domain, subdomains) -> {
            String base = sharedSuffix(subdomains, domain);
            List<String> below = subdomains.stream().filter(h -> h.endsWith("." + base)).sorted().toList();
            // INVARIANT: base is the registrable domain or below it, so it is never a public suffix
            if (below.size() >= minSubdomains && !publicSuffix(base)) {
                out.add(new Wildcard(base, below));
            }
        });
        return out;
    }

    /** The longest label suffix every host shares, at least {@code domain}. */
    private static String sharedSuffix(List<String> hosts, String domain) {
        Map<String, Integer> counts = new HashMap<>();
        for (String host : hosts) {
            String[] labels = host.split("\\.");
            StringBuilder suffix = new StringBuilder();
            for (int i = labels.length - 1; i > 0; i--) { // a proper suffix: never the host itself
                suffix.insert(0, suffix.length() == 0 ? labels[i] : labels[i] + ".");
                counts.merge(suffix.toString(), 1, Integer::sum);
            }
        }
        String best = domain;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            boolean all = e.getValue() == hosts.size();
            if (all && e.getKey().length() > best.length() && e.getKey().endsWith("." + domain)) {
                best = e.getKey();
            }
        }
        return best;
    }
}
