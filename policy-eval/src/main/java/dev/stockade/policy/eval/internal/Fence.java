package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.glob.Glob;
import java.util.Set;

/**
 * The fences one policy entry puts on an allowed row: scheme, caller fence and rule table, with every
 * decision they can produce built in advance.
 */
final class Fence {
    /** Lower-case scheme the entry requires, null for any. */
    final String scheme;
    /** Callers listed by the entry, null for any (an empty set passes nothing). */
    final Set<String> callers;
    /** Rule table; null when the entry has no rules. */
    final String[] methods;
    final Glob[] paths;
    /** Rules whose path glob did not compile: they never match. */
    final boolean[] broken;
    final boolean[] graphql;
    final boolean primary;

    final Decision schemeDeny;
    final Decision callerDeny;
    final Decision noRuleDeny;
    final Decision[] ruleAllow;
    final Decision[] graphqlUnsupported;

    Fence(String scheme, Set<String> callers, String[] methods, Glob[] paths, boolean[] broken, boolean[] graphql,
            boolean primary, Decision schemeDeny, Decision callerDeny, Decision noRuleDeny, Decision[] ruleAllow,
            Decision[] graphqlUnsupported) {
        this.scheme = scheme;
        this.callers = callers;
        this.methods = methods;
        this.paths = paths;
        this.broken = broken;
        this.graphql = graphql;
        this.primary = primary;
        this.schemeDeny = schemeDeny;
        this.callerDeny = callerDeny;
        this.noRuleDeny = noRuleDeny;
        this.ruleAllow = ruleAllow;
        this.graphqlUnsupported = graphqlUnsupported;
    }

    boolean hasRules() {
        return methods != null;
    }

    /**
     * The entry's rules judged against a request: the first admitting rule, or a deny. Once a rule with a
     * graphql block matches (method and path), only a graphql rule can admit (spec GraphQL rule 6).
     */
    Decision judge(EgressRequest request) {
        String method = request.method();
        String path = request.path() == null || request.path().isEmpty() ? "/" : request.path();
        boolean pathSafe = PathCheck.safe(path);
        int plain = -1;
        int firstGraphql = -1;
        for (int i = 0; i < methods.length; i++) {
            if (broken[i] || (methods[i] != null && !methods[i].equals(method))) {
                continue;
            }
            if (paths[i] != null && (!pathSafe || !paths[i].matches(path))) {
                continue;
            }
            if (graphql[i]) {
                if (firstGraphql < 0) {
                    firstGraphql = i;
                }
            } else if (plain < 0) {
                plain = i;
            }
        }
        if (firstGraphql >= 0) {
            // Until the GraphQL fence is wired in, a request a graphql rule covers cannot be judged: deny.
            return graphqlUnsupported[firstGraphql];
        }
        return plain >= 0 ? ruleAllow[plain] : noRuleDeny;
    }
}
