package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlFenceSet;
import dev.stockade.policy.model.Verdict;
import java.util.Set;
import java.util.function.Function;

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
    /** Compiled fence of each graphql rule; null where the rule has none or it failed to compile. */
    final GraphqlFenceSet[] graphqlFences;
    final boolean primary;

    final Decision schemeDeny;
    /**
     * The one port the entry's scheme admits (443 for https and wss, 80 for http and ws), -1 for any: also -1
     * when the entry's pattern names a port, which wins (the row matched only on that port).
     */
    final int port;
    /** A request on the entry's scheme but another port: {@code scheme-mismatch} too, saying which port. */
    final Decision portDeny;
    final Decision callerDeny;
    final Decision noRuleDeny;
    final Decision[] ruleAllow;
    final Decision[] graphqlUnsupported;

    Fence(String scheme, boolean patternNamesPort, Set<String> callers, String[] methods, Glob[] paths, boolean[] broken, boolean[] graphql,
            GraphqlFenceSet[] graphqlFences, boolean primary, Decision schemeDeny, Decision callerDeny, Decision noRuleDeny, Decision[] ruleAllow,
            Decision[] graphqlUnsupported) {
        this.scheme = scheme;
        this.callers = callers;
        this.methods = methods;
        this.paths = paths;
        this.broken = broken;
        this.graphql = graphql;
        this.graphqlFences = graphqlFences;
        this.primary = primary;
        this.schemeDeny = schemeDeny;
        this.port = scheme == null || patternNamesPort ? -1 : switch (scheme) {
            case "https", "wss" -> 443;
            case "http", "ws" -> 80;
            default -> -1;
        };
        this.portDeny = port < 0 ? null : new Decision(Verdict.DENY, null, false, ReasonCode.SCHEME_MISMATCH,
                schemeDeny.policy(), schemeDeny.entryIndex(), -1, "entry scheme `" + scheme + "` admits port " + port
                        + " only (docs/semantics.md, \"Ports\")");
        this.callerDeny = callerDeny;
        this.noRuleDeny = noRuleDeny;
        this.ruleAllow = ruleAllow;
        this.graphqlUnsupported = graphqlUnsupported;
    }

    boolean hasRules() {
        return methods != null;
    }

    /** Whether some rule of this entry carries a GraphQL fence. */
    boolean hasGraphql() {
        if (graphql == null) {
            return false;
        }
        for (boolean g : graphql) {
            if (g) {
                return true;
            }
        }
        return false;
    }

    /**
     * One client text frame of a websocket this entry admitted, judged by the graphql rules matching the
     * upgrade's method and path (the same rule-6 order as a request); {@code null} when no graphql rule
     * matches, so the entry has nothing to police on this socket.
     */
    Decision judgeFrame(EgressRequest upgrade, String subprotocol, String textFrame) {
        if (!graphqlFenced(upgrade)) {
            return null;
        }
        return judgeGraphqlRules(upgrade, set -> set.judgeFrame(subprotocol, textFrame));
    }

    /** Whether a graphql rule of this entry matches the request's method and path. */
    boolean graphqlFenced(EgressRequest request) {
        if (!hasRules()) {
            return false;
        }
        String method = request.method();
        String path = request.path() == null || request.path().isEmpty() ? "/" : request.path();
        String[] readings = PathCheck.readings(path);
        for (int i = 0; i < methods.length; i++) {
            if (graphql[i] && matches(i, method, path, readings)) {
                return true;
            }
        }
        return false;
    }

    private boolean matches(int i, String method, String path, String[] readings) {
        return !broken[i] && (methods[i] == null || methods[i].equals(method))
                && (paths[i] == null || PathCheck.matches(paths[i], path, readings));
    }

    /** Rule 6 for frames: the first matching graphql rule whose fence admits decides, else the first refusal. */
    private Decision judgeGraphqlRules(EgressRequest request, Function<GraphqlFenceSet, FenceResult> judge) {
        String method = request.method();
        String path = request.path() == null || request.path().isEmpty() ? "/" : request.path();
        String[] readings = PathCheck.readings(path);
        Decision deny = null;
        for (int i = 0; i < methods.length; i++) {
            if (!graphql[i] || !matches(i, method, path, readings)) {
                continue;
            }
            if (graphqlFences[i] == null) {
                deny = deny == null ? graphqlUnsupported[i] : deny;
                continue;
            }
            FenceResult result = judge.apply(graphqlFences[i]);
            if (result.allowed()) {
                return ruleAllow[i];
            }
            if (deny == null) {
                deny = graphqlDenial(i, result);
            }
        }
        return deny;
    }

    /**
     * The entry's rules judged against a request: the first admitting rule, or a deny. Once a rule with a
     * graphql block matches (method and path), only a graphql rule can admit (spec GraphQL rule 6); the
     * GraphQL payload is parsed at most once per request, whatever the number of fences.
     */
    Decision judge(EgressRequest request, GraphqlRequest exchange) {
        String method = request.method();
        String path = request.path() == null || request.path().isEmpty() ? "/" : request.path();
        String[] readings = PathCheck.readings(path);
        int plain = -1;
        boolean anyGraphql = false;
        Decision graphqlDeny = null;
        for (int i = 0; i < methods.length; i++) {
            if (broken[i] || (methods[i] != null && !methods[i].equals(method))) {
                continue;
            }
            if (paths[i] != null && !PathCheck.matches(paths[i], path, readings)) {
                continue;
            }
            if (!graphql[i]) {
                if (plain < 0) {
                    plain = i;
                }
                continue;
            }
            anyGraphql = true;
            if (graphqlFences[i] == null) {
                graphqlDeny = graphqlDeny == null ? graphqlUnsupported[i] : graphqlDeny;
                continue;
            }
            FenceResult result = graphqlFences[i].judge(exchange.get(request));
            if (result.allowed()) {
                return ruleAllow[i];
            }
            if (graphqlDeny == null) {
                graphqlDeny = graphqlDenial(i, result);
            }
        }
        if (anyGraphql) {
            return graphqlDeny;
        }
        return plain >= 0 ? ruleAllow[plain] : noRuleDeny;
    }

    private Decision graphqlDenial(int rule, FenceResult result) {
        ReasonCode code = ReasonCode.fromCode(result.reasonCode());
        if (code == null || !code.code().startsWith("graphql-")) {
            code = ReasonCode.GRAPHQL_UNPARSEABLE;
        }
        Decision template = noRuleDeny;
        String detail = result.detail() == null ? code.code() : result.detail();
        return new Decision(Verdict.DENY, null, false, code, template.policy(), template.entryIndex(), rule, detail);
    }

    /** The GraphQL view of one request, built on first use and shared by every fence of the decision. */
    static final class GraphqlRequest {
        private GraphqlExchange exchange;

        GraphqlExchange get(EgressRequest request) {
            if (exchange == null) {
                exchange = GraphqlExchange.of(request.method(), request.headers() == null ? null
                        : request.header("content-type"), request.query(), request.body(), request.bodyTruncated(),
                        request.isWebSocketUpgrade());
            }
            return exchange;
        }
    }
}
