package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.graphql.FenceResult;
import java.util.Set;

/**
 * The fences one policy entry puts on an allowed row: scheme, caller fence and rule table, with every
 * decision they can produce built in advance by {@link ProgramBuilder}.
 */
final class Fence {
    /** Lower-case scheme the entry requires, null for any. */
    final String scheme;
    /**
     * The one port the entry's scheme admits (443 for https and wss, 80 for http and ws), -1 for any: also -1
     * when the entry's pattern names a port, which wins (the row matched only on that port).
     */
    final int port;
    /** Callers listed by the entry, null for any (an empty set passes nothing). */
    final Set<String> callers;
    /** Whether this is the row's primary component, whose allow names the decision. */
    final boolean primary;
    // the denies of the entry's fences, copied out of their Refusals: read on the hot path, one load each
    final Decision schemeDeny;
    final Decision portDeny;
    final Decision callerDeny;
    private final Decision noRuleDeny;
    /** The rule table in the entry's order; null when the entry has no rules. */
    private final CompiledRule[] rules;
    private final boolean graphql;

    /**
     * The denies an entry's fences give, charged to the entry: {@code port} is {@code scheme-mismatch} for a
     * request on the entry's scheme but another port (null when {@code port} is -1); {@code noRule} is null
     * when the entry has no rules.
     */
    record Refusals(Decision scheme, Decision port, Decision caller, Decision noRule) {
    }

    Fence(String scheme, int port, Set<String> callers, CompiledRule[] rules, boolean primary, Refusals refusals) {
        this.scheme = scheme;
        this.port = port;
        this.callers = callers;
        this.rules = rules;
        this.primary = primary;
        this.schemeDeny = refusals.scheme();
        this.portDeny = refusals.port();
        this.callerDeny = refusals.caller();
        this.noRuleDeny = refusals.noRule();
        boolean g = false;
        for (int i = 0; rules != null && i < rules.length; i++) {
            g |= rules[i].graphql();
        }
        this.graphql = g;
    }

    /** The path every rule of a decision judges: the request's, or {@code /} when it has none. */
    static String pathOf(EgressRequest request) {
        String path = request.path();
        return path == null || path.isEmpty() ? "/" : path;
    }

    boolean hasRules() {
        return rules != null;
    }

    /** Whether some rule of this entry carries a GraphQL fence. */
    boolean hasGraphql() {
        return graphql;
    }

    /**
     * The one walk of the rule table: the index of the first rule at or after {@code from} that covers the
     * method and path, -1 when none does. A cursor rather than an {@link java.util.Iterator}, so that the
     * hot path allocates nothing.
     */
    int nextMatch(int from, String method, String path, String[] readings) {
        for (int i = from; i < rules.length; i++) {
            if (rules[i].matches(method, path, readings)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether a graphql rule of this entry covers the method and path. */
    boolean graphqlFenced(String method, String path, String[] readings) {
        if (!graphql) {
            return false;
        }
        int i = -1;
        while ((i = nextMatch(i + 1, method, path, readings)) >= 0) {
            if (rules[i].graphql()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The entry's rules judged against a request or frame (spec rule 6): once a graphql rule covers the method
     * and path, only a graphql rule can admit, and the first covering graphql rule's refusal is the answer;
     * otherwise the first covering plain rule admits, else {@code no-rule-matched}. A frame
     * ({@link GraphqlSubject#graphqlOnly()}) that no graphql rule covers gets {@code null}: the entry has
     * nothing to police on that socket. The GraphQL payload is read at most once, by {@code graphql}.
     */
    Decision judge(String method, String path, String[] readings, GraphqlSubject graphql) {
        if (!this.graphql) { // no graphql rule can take precedence: the first covering rule decides, stop there
            if (graphql != null && graphql.graphqlOnly()) {
                return null;
            }
            int first = nextMatch(0, method, path, readings);
            return first >= 0 ? rules[first].allow() : noRuleDeny;
        }
        CompiledRule plain = null;
        boolean anyGraphql = false;
        Decision graphqlDeny = null;
        int i = -1;
        while ((i = nextMatch(i + 1, method, path, readings)) >= 0) {
            CompiledRule rule = rules[i];
            if (!rule.graphql()) {
                plain = plain == null ? rule : plain;
                continue;
            }
            anyGraphql = true;
            if (rule.fence() == null) {
                graphqlDeny = graphqlDeny == null ? rule.unsupported() : graphqlDeny;
                continue;
            }
            FenceResult result = graphql.judgeBy(rule.fence());
            if (result.allowed()) {
                return rule.allow();
            }
            if (graphqlDeny == null) {
                graphqlDeny = rule.refusal(result, noRuleDeny);
            }
        }
        if (anyGraphql) {
            return graphqlDeny;
        }
        if (graphql != null && graphql.graphqlOnly()) {
            return null;
        }
        return plain != null ? plain.allow() : noRuleDeny;
    }
}
