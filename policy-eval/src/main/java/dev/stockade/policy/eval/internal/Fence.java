package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.graphql.GraphqlFenceSet;
import dev.stockade.policy.model.Verdict;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

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
    /** The compiled GraphQL fence of each rule, null for a rule without one. */
    final GraphqlFenceSet[] graphql;
    final boolean primary;

    final Decision schemeDeny;
    final Decision callerDeny;
    final Decision noRuleDeny;
    final Decision[] ruleAllow;

    private static final Map<String, ReasonCode> REASONS = Arrays.stream(ReasonCode.values())
            .collect(Collectors.toUnmodifiableMap(ReasonCode::code, Function.identity()));

    Fence(String scheme, Set<String> callers, String[] methods, Glob[] paths, boolean[] broken,
            GraphqlFenceSet[] graphql, boolean primary, Decision schemeDeny, Decision callerDeny, Decision noRuleDeny,
            Decision[] ruleAllow) {
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
    }

    boolean hasRules() {
        return methods != null;
    }

    boolean hasGraphql() {
        return graphql != null && Arrays.stream(graphql).anyMatch(g -> g != null);
    }

    /**
     * The entry's rules judged against a request: the first admitting rule, or a deny. Once a rule with a
     * graphql block matches (method and path), only a graphql rule can admit (spec GraphQL rule 6).
     */
    Decision judge(EgressRequest request, GraphqlInput input) {
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
            if (graphql[i] != null) {
                if (firstGraphql < 0) {
                    firstGraphql = i;
                }
            } else if (plain < 0) {
                plain = i;
            }
        }
        if (firstGraphql >= 0) {
            return judgeGraphql(request, input, firstGraphql);
        }
        return plain >= 0 ? ruleAllow[plain] : noRuleDeny;
    }

    /**
     * Spec GraphQL rule 6: a graphql rule matched the method and path, so only a graphql rule may admit.
     * The first whose fence admits the operation decides; otherwise the first refusal is reported.
     */
    private Decision judgeGraphql(EgressRequest request, GraphqlInput input, int first) {
        return judgeGraphqlRules(request, first, set -> set.judge(input.exchange()));
    }

    /**
     * One client text frame of a websocket this entry admitted, judged by the graphql rules matching the
     * upgrade's method and path (the same rule-6 order as a request); {@code null} when no graphql rule
     * matches, so the entry has nothing to police on this socket.
     */
    Decision judgeFrame(EgressRequest upgrade, String subprotocol, String textFrame) {
        int first = firstGraphql(upgrade);
        return first < 0 ? null : judgeGraphqlRules(upgrade, first, set -> set.judgeFrame(subprotocol, textFrame));
    }

    /** Whether a graphql rule of this entry matches the request's method and path. */
    boolean graphqlFenced(EgressRequest request) {
        return hasRules() && firstGraphql(request) >= 0;
    }

    private int firstGraphql(EgressRequest request) {
        String method = request.method();
        String path = request.path() == null || request.path().isEmpty() ? "/" : request.path();
        boolean pathSafe = PathCheck.safe(path);
        for (int i = 0; i < methods.length; i++) {
            if (graphql[i] != null && matches(i, method, path, pathSafe)) {
                return i;
            }
        }
        return -1;
    }

    private boolean matches(int i, String method, String path, boolean pathSafe) {
        return !broken[i] && (methods[i] == null || methods[i].equals(method))
                && (paths[i] == null || (pathSafe && paths[i].matches(path)));
    }

    private Decision judgeGraphqlRules(EgressRequest request, int first, Function<GraphqlFenceSet, FenceResult> judge) {
        String method = request.method();
        String path = request.path() == null || request.path().isEmpty() ? "/" : request.path();
        boolean pathSafe = PathCheck.safe(path);
        FenceResult refusal = null;
        int refusedBy = first;
        for (int i = first; i < methods.length; i++) {
            if (graphql[i] == null || !matches(i, method, path, pathSafe)) {
                continue;
            }
            FenceResult result = judge.apply(graphql[i]);
            if (result.allowed()) {
                return ruleAllow[i];
            }
            if (refusal == null) {
                refusal = result;
                refusedBy = i;
            }
        }
        Decision where = ruleAllow[refusedBy];
        ReasonCode reason = REASONS.getOrDefault(refusal.reasonCode(), ReasonCode.GRAPHQL_UNPARSEABLE);
        return new Decision(Verdict.DENY, null, false, reason, where.policy(), where.entryIndex(), refusedBy,
                refusal.detail() + " (rule " + refusedBy + " of entry " + where.entryIndex() + " of policy `"
                        + where.policy() + "`)");
    }
}
