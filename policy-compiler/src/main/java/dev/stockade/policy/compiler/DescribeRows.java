package dev.stockade.policy.compiler;

import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.EffectiveEntry;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The CLI's one-line view of a domain entry (FORMAT.md "describe"): five columns separated by two
 * spaces: pattern, verdict, {@code scheme/transport}, {@code callers=}, {@code rules=}.
 *
 * <p>An effective row merged from several entries prints: patterns joined by {@code &} when two wildcard
 * patterns overlap only partly; schemes joined by {@code &} when entries require different ones (nothing
 * passes); the callers every entry admits; and each entry's rule list (alternatives joined by {@code ;})
 * joined by {@code " & "}: a request must pass one rule of every list.
 */
public final class DescribeRows {
    private DescribeRows() {
    }

    /**
     * The row of one entry as written. A deny entry denies every scheme, caller and request whatever it
     * says (lint warns about {@code scheme} and {@code rules} there), so its row shows {@code *} and
     * {@code any}: what the engine does.
     */
    public static String row(DomainEntry entry) {
        return columns(entry).line();
    }

    /**
     * The five columns of a row kept apart, for a reader that lays them out itself (the admin UI's table): a
     * binary path or a rule path may hold the two spaces that separate the columns of {@link #row(DomainEntry)}.
     */
    public record Columns(String pattern, String verdict, String schemeTransport, String callers, String rules) {
        /** The columns as the CLI prints them. */
        public String line() {
            return String.join("  ", pattern, verdict, schemeTransport, callers, rules);
        }
    }

    /** The columns of {@link #row(DomainEntry)}. */
    public static Columns columns(DomainEntry entry) {
        boolean deny = entry.verdict() != Verdict.ALLOW;
        return new Columns(entry.pattern(), verdict(entry.verdict()),
                (entry.scheme() == null || deny ? "*" : entry.scheme()) + "/"
                        + (deny ? "-" : entry.effectiveTransport().wire()),
                "callers=" + (deny ? "any" : callers(entry.binaries())), "rules=" + (deny ? "any" : rules(entry.rules())));
    }

    /** The rows of an effective policy, in first-match order. */
    public static List<String> of(EffectivePolicy effective) {
        List<String> out = new ArrayList<>(effective.entries().size());
        for (EffectiveEntry e : effective.entries()) {
            out.add(row(e));
        }
        return out;
    }

    /** The row of one effective entry. */
    public static String row(EffectiveEntry e) {
        String pattern = String.join("&", e.patterns());
        List<DomainEntry> applied = new ArrayList<>();
        if (!e.allows() && e.decidedBy() != null) {
            for (EffectiveComponent c : e.components()) {
                if (c.source().equals(e.decidedBy())) {
                    applied.add(c.entry());
                }
            }
        } else {
            for (EffectiveComponent c : e.components()) {
                if (c.entry().verdict() == Verdict.ALLOW) {
                    applied.add(c.entry());
                }
            }
        }
        Set<String> schemes = new LinkedHashSet<>();
        List<String> callers = null;
        List<String> ruleLists = new ArrayList<>();
        for (DomainEntry d : applied) {
            if (d.verdict() != Verdict.ALLOW) {
                continue; // a deny entry's scheme and rules are ignored (see row(DomainEntry))
            }
            if (d.scheme() != null) {
                schemes.add(d.scheme());
            }
            if (d.binaries() != null) {
                callers = callers == null ? new ArrayList<>(new LinkedHashSet<>(d.binaries()))
                        : keep(callers, d.binaries());
            }
            if (d.hasRules()) {
                ruleLists.add(rules(d.rules()));
            }
        }
        String scheme = schemes.isEmpty() ? "*" : String.join("&", schemes);
        String transport = e.allows() && e.transport() != null ? e.transport().wire() : "-";
        String rules = ruleLists.isEmpty() ? "any" : String.join(" & ", ruleLists);
        return String.join("  ", pattern, e.allows() ? "allow" : "deny", scheme + "/" + transport,
                "callers=" + callers(callers), "rules=" + rules);
    }

    private static List<String> keep(List<String> callers, List<String> also) {
        List<String> out = new ArrayList<>(callers);
        out.retainAll(also);
        return out;
    }

    private static String verdict(Verdict v) {
        return v == null ? "deny" : v.wire();
    }

    private static String callers(List<String> binaries) {
        if (binaries == null) {
            return "any";
        }
        return binaries.isEmpty() ? "none" : String.join(",", binaries);
    }

    private static String rules(List<Rule> rules) {
        if (rules == null || rules.isEmpty()) {
            return "any";
        }
        List<String> parts = new ArrayList<>(rules.size());
        for (Rule r : rules) {
            parts.add(rule(r));
        }
        return String.join(";", parts);
    }

    private static String rule(Rule r) {
        String path = r.path() == null ? "*" : r.path();
        GraphqlFence g = r.graphql();
        if (g == null) {
            return (r.method() == null ? "*" : r.method()) + " " + path;
        }
        StringBuilder sb = new StringBuilder("graphql:")
                .append(g.operationType() == null ? "*" : g.operationType().wire()).append(' ').append(path);
        if (g.operationName() != null) {
            sb.append(" name=").append(g.operationName());
        }
        if (g.fields() != null) {
            sb.append(" fields=").append(String.join(",", g.fields()));
        }
        return sb.toString();
    }
}
