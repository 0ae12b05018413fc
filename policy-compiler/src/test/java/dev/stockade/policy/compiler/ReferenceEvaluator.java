package dev.stockade.policy.compiler;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.net.IDN;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The oracle: a deliberately naive evaluator straight over the model, written from the spec and
 * docs/semantics.md without the row product, the index or any precomputation. Every policy is
 * scanned, every glob compiled on the spot.
 */
final class ReferenceEvaluator {

    /** Verdict and transport (null on deny). */
    record Outcome(Verdict verdict, Transport transport) {
        static final Outcome DENY = new Outcome(Verdict.DENY, null);
    }

    private ReferenceEvaluator() {
    }

    static Outcome decide(List<Policy> ceiling, List<Policy> grants, EgressRequest request, boolean connection) {
        String host = request.host().toLowerCase(Locale.ROOT);
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        try {
            host = IDN.toASCII(host, 0).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return Outcome.DENY;
        }
        if (host.length() > 253 || !host.matches("[a-z0-9_-]{1,63}(\\.[a-z0-9_-]{1,63})*")) {
            return Outcome.DENY; // not a host name: nothing matches it
        }
        boolean ip = host.matches("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
        if (!ip && host.matches(".*(^|\\.)([0-9]+|0x[0-9a-f]*)$")) {
            // ends in a number: an address, never a name; the generated hosts of this kind are all
            // refused forms (five parts, leading zeros), so this oracle need not canonicalise
            return Outcome.DENY;
        }
        List<DomainEntry> grantPicks = picks(grants, host, ip, request.port());
        boolean upstream = false;
        if (grantPicks.isEmpty()) {
            boolean defaultAllows = !grants.isEmpty()
                    && grants.stream().allMatch(p -> p.effectiveDefaultVerdict() == Verdict.ALLOW);
            if (!defaultAllows) {
                return Outcome.DENY;
            }
            upstream |= grants.stream().anyMatch(p -> p.effectiveDefaultTransport() == Transport.UPSTREAM);
        }
        if (grantPicks.stream().anyMatch(e -> e.verdict() != Verdict.ALLOW)) {
            return Outcome.DENY;
        }
        List<DomainEntry> all = new ArrayList<>(grantPicks);
        if (!ceiling.isEmpty()) {
            List<DomainEntry> ceilingPicks = picks(ceiling, host, ip, request.port());
            if (ceilingPicks.isEmpty()) {
                if (!ceiling.stream().allMatch(p -> p.effectiveDefaultVerdict() == Verdict.ALLOW)) {
                    return Outcome.DENY;
                }
                upstream |= ceiling.stream().anyMatch(p -> p.effectiveDefaultTransport() == Transport.UPSTREAM);
            }
            if (ceilingPicks.stream().anyMatch(e -> e.verdict() != Verdict.ALLOW)) {
                return Outcome.DENY;
            }
            all.addAll(ceilingPicks);
        }
        String scheme = scheme(request);
        for (DomainEntry e : all) {
            if (e.scheme() != null && !e.scheme().equalsIgnoreCase(String.valueOf(scheme))) {
                return Outcome.DENY;
            }
            // a scheme means its default port unless the pattern names one (docs/semantics.md, "Ports")
            String s = e.scheme() == null || portOf(e.pattern()) > 0 ? "" : e.scheme().toLowerCase(Locale.ROOT);
            int port = s.equals("https") || s.equals("wss") ? 443 : s.equals("http") || s.equals("ws") ? 80 : -1;
            if (port > 0 && request.port() != port) {
                return Outcome.DENY;
            }
        }
        for (DomainEntry e : all) {
            if (e.binaries() != null && (request.caller() == null || !e.binaries().contains(request.caller()))) {
                return Outcome.DENY;
            }
        }
        for (DomainEntry e : all) {
            upstream |= e.effectiveTransport() == Transport.UPSTREAM || e.hasRules();
            if (!connection && e.hasRules() && !rulesAdmit(e.rules(), request)) {
                return Outcome.DENY;
            }
        }
        return new Outcome(Verdict.ALLOW, upstream ? Transport.UPSTREAM : Transport.DIRECT);
    }

    /** For each policy, its first entry matching the host on the port (silent policies contribute nothing). */
    private static List<DomainEntry> picks(List<Policy> policies, String host, boolean ip, int port) {
        List<DomainEntry> out = new ArrayList<>();
        for (Policy p : policies) {
            for (DomainEntry e : p.domains()) {
                int named = portOf(e.pattern());
                if ((named < 0 || named == port) && hostMatches(hostOf(e.pattern()), host, ip)) {
                    out.add(e);
                    break;
                }
            }
        }
        return out;
    }

    /** The port a generated pattern names after its one colon, -1 when none (no IPv6 patterns are generated). */
    private static int portOf(String pattern) {
        int colon = pattern.indexOf(':');
        return colon < 0 ? -1 : Integer.parseInt(pattern.substring(colon + 1));
    }

    private static String hostOf(String pattern) {
        int colon = pattern.indexOf(':');
        return colon < 0 ? pattern : pattern.substring(0, colon);
    }

    private static boolean hostMatches(String pattern, String host, boolean ip) {
        if (ip) {
            return pattern.equals(host); // IP literals: exact entries only
        }
        GlobResult g = Glob.compile(GlobKind.DOMAIN, pattern);
        return g.ok() && g.glob().matches(host);
    }

    private static boolean rulesAdmit(List<Rule> rules, EgressRequest request) {
        boolean plain = false;
        boolean graphql = false;
        for (Rule r : rules) {
            boolean methodOk = r.method() == null || r.method().toUpperCase(Locale.ROOT).equals(request.method());
            boolean pathOk = r.path() == null || (safePath(request.path()) && pathMatches(r.path(), request.path()));
            if (methodOk && pathOk) {
                if (r.graphql() != null) {
                    graphql = true;
                } else {
                    plain = true;
                }
            }
        }
        return !graphql && plain; // the generated requests carry no GraphQL payload: a graphql fence denies
    }

    private static boolean pathMatches(String glob, String path) {
        GlobResult g = Glob.compile(GlobKind.PATH, glob);
        return g.ok() && g.glob().matches(path);
    }

    private static boolean safePath(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        if (!path.startsWith("/") || path.contains("\\") || lower.contains("%2e") || lower.contains("%2f")
                || lower.contains("%5c") || lower.contains("%00")) {
            return false;
        }
        for (String segment : path.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return path.chars().noneMatch(c -> c < 0x21 || c == 0x7f);
    }

    private static String scheme(EgressRequest r) {
        if (r.scheme() != null) {
            return r.scheme();
        }
        if (r.sni() != null || r.port() == 443) {
            return "https";
        }
        return r.port() == 80 ? "http" : null;
    }
}
