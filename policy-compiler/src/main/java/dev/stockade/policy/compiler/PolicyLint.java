package dev.stockade.policy.compiler;

import dev.stockade.policy.text.Quoted;
import dev.stockade.policy.compiler.internal.UnreachableEntries;
import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.HostPort;
import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.SourcePosition;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Warnings about a valid policy that probably does not do what its author meant (`stockade policy
 * lint`). Every problem is a {@link dev.stockade.policy.model.Severity#WARNING} with a JSON pointer;
 * line and column are 0 (the caller fills them from the source map).
 *
 * <p>Codes: {@code entry-unreachable}, {@code fields-wildcard-with-arguments}, {@code rules-on-direct},
 * {@code credential-domain-not-allowed}, {@code graphql-rule-shadowed}, {@code port-contradicts-scheme}, and {@code lint-incomplete} when a check
 * gave up at its bound.
 */
public final class PolicyLint {
    private PolicyLint() {
    }

    /**
     * What {@code stockade policy lint} reports for one read document: the reader's problems, then (for a valid
     * document) the warnings of {@link #analyse(Policy)} placed at the nearest position the source map knows, all
     * sorted by line and column. Every surface that lints (the CLI, the API's policy checks) shows the same list.
     */
    public static List<Problem> lint(ReadResult read) {
        List<Problem> problems = new ArrayList<>(read.problems());
        if (read.valid()) {
            for (Problem p : analyse(read.policy())) {
                SourcePosition pos = read.sourceMap().nearest(p.pointer());
                problems.add(p.line() > 0 || pos == null ? p : p.at(pos));
            }
        }
        problems.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
        return problems;
    }

    /** The warnings of {@code policy}; credentials are not checked (their domains are not known here). */
    public static List<Problem> analyse(Policy policy) {
        return analyse(policy, Map.of());
    }

    /**
     * The warnings of {@code policy}, checking each credential whose domain {@code credentialDomains}
     * (credential name to the host it is used for) knows; credentials it does not know are skipped.
     */
    public static List<Problem> analyse(Policy policy, Map<String, String> credentialDomains) {
        List<Problem> out = new ArrayList<>();
        if (policy == null) {
            return out;
        }
        List<DomainEntry> entries = policy.domains();
        List<DomainPattern> patterns = new ArrayList<>(entries.size());
        for (DomainEntry e : entries) {
            patterns.add(DomainPattern.parse(e.pattern()));
        }
        int[] coveredBy = new int[entries.size()];
        UnreachableEntries check = UnreachableEntries.of(patterns, coveredBy);
        for (int i = 0; i < entries.size(); i++) {
            unreachable(entries, coveredBy, i, out);
            rules(entries.get(i), i, out);
            schemePort(entries.get(i), patterns.get(i), i, out);
        }
        if (!check.complete()) {
            out.add(Problem.warning(ProblemCode.LINT_INCOMPLETE, "/allowedDomains",
                    "the unreachable-entry check gave up on in-label wildcards after "
                            + UnreachableEntries.MAX_GLOB_CHECKS + " comparisons; some unreachable entries may"
                            + " not be reported", "split the policy, or use fewer in-label wildcards"));
        }
        credentials(policy, patterns, credentialDomains == null ? Map.of() : credentialDomains, out);
        return out;
    }

    private static void unreachable(List<DomainEntry> entries, int[] coveredBy, int i, List<Problem> out) {
        int j = coveredBy[i];
        if (j >= 0) {
            out.add(Problem.warning(ProblemCode.ENTRY_UNREACHABLE, "/allowedDomains/" + i + "/pattern",
                    "entry " + Quoted.input(entries.get(i).pattern()) + " can never match: entry " + j + " ("
                            + Quoted.input(entries.get(j).pattern()) + ") covers every host it names",
                    "the first matching entry wins and fences do not fall through; move this entry above entry "
                            + j + " or remove it"));
        }
    }

    /**
     * A pattern naming the other web scheme's default port: {@code :443} with {@code scheme: http} (or
     * {@code ws}), {@code :80} with {@code https} (or {@code wss}). The named port wins and the scheme is still
     * checked, so such an entry admits only a plain-text request to 443 (or TLS to 80), which is rarely meant.
     */
    private static void schemePort(DomainEntry e, DomainPattern p, int i, List<Problem> out) {
        String scheme = e.scheme();
        if (scheme == null || e.verdict() != Verdict.ALLOW) {
            return;
        }
        boolean tls = scheme.equals("https") || scheme.equals("wss");
        boolean plain = scheme.equals("http") || scheme.equals("ws");
        if ((p.port() == 443 && plain) || (p.port() == 80 && tls)) {
            out.add(Problem.warning(ProblemCode.PORT_CONTRADICTS_SCHEME, "/allowedDomains/" + i + "/pattern",
                    "entry " + Quoted.input(e.pattern()) + " names port " + p.port() + " with `scheme: " + scheme
                            + "`: it admits " + scheme + " on port " + p.port() + " only, the other scheme's default port",
                    "the named port wins and the scheme is still checked; write "
                            + Quoted.input(p.hostText() + ":" + (tls ? 443 : 80)) + " or `scheme: "
                            + (tls ? "http" : "https") + "`"));
        }
    }

    private static void rules(DomainEntry e, int i, List<Problem> out) {
        if (!e.hasRules() || e.verdict() != Verdict.ALLOW) {
            return;
        }
        if (e.transport() == Transport.DIRECT) {
            out.add(Problem.warning(ProblemCode.RULES_ON_DIRECT, "/allowedDomains/" + i + "/transport",
                    "entry " + Quoted.input(e.pattern()) + " has rules but direct transport: it is intercepted as upstream so "
                            + "that its rules can be enforced",
                    "write `transport: upstream`, or drop the rules to keep the connection direct"));
        }
        GraphqlShadowLint.check(e, i, out);
        for (int r = 0; r < e.rules().size(); r++) {
            Rule rule = e.rules().get(r);
            GraphqlFence g = rule.graphql();
            if (g != null && g.arguments() != null && !g.arguments().isEmpty() && g.fields() != null
                    && g.fields().contains("*")) {
                out.add(Problem.warning(ProblemCode.FIELDS_WILDCARD_WITH_ARGUMENTS,
                        "/allowedDomains/" + i + "/rules/" + r + "/graphql/fields",
                        "`fields: [\"*\"]` with argument conditions leaves every other root field unbounded",
                        "name the root fields the agent needs instead of `*`"));
            }
        }
    }

    private static void credentials(Policy policy, List<DomainPattern> patterns, Map<String, String> domains,
            List<Problem> out) {
        if (policy.credentials() == null) {
            return;
        }
        for (int k = 0; k < policy.credentials().size(); k++) {
            CredentialBinding c = policy.credentials().get(k);
            String host = c.credentialName() == null ? null : domains.get(c.credentialName());
            if (host == null) {
                continue;
            }
            if (!allows(policy, patterns, host)) {
                out.add(Problem.warning(ProblemCode.CREDENTIAL_DOMAIN_NOT_ALLOWED, "/credentials/" + k,
                        "credential " + Quoted.input(c.credentialName()) + " is for " + Quoted.input(host)
                                + ", which this policy does not allow",
                        "attaching a credential never allows its domain; add an allow entry for " + Quoted.input(host)));
            }
        }
    }

    /** Whether the policy allows {@code host} (a credential domain: a port, 443 when it names none). */
    private static boolean allows(Policy policy, List<DomainPattern> patterns, String host) {
        HostPort split = HostPort.split(host.toLowerCase(java.util.Locale.ROOT));
        String h = split.host();
        int port = split.hasPort() ? split.port() : 443;
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).matches(h, port)) {
                return policy.domains().get(i).verdict() == Verdict.ALLOW;
            }
        }
        return policy.effectiveDefaultVerdict() == Verdict.ALLOW;
    }
}
