package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;

/**
 * The compiled program: rows in first-match order, the domain index over them, and the default. Built
 * once by {@link ProgramBuilder}; immutable afterwards, so one instance serves every thread.
 */
public final class Engine {
    private static final Decision INVALID_HOST =
            Decision.deny(ReasonCode.INVALID_REQUEST, "the request host is not a valid host name");
    private static final Decision NO_REQUEST = Decision.deny(ReasonCode.INVALID_REQUEST, "no request");
    private static final Decision INTERNAL =
            Decision.deny(ReasonCode.INTERNAL_ERROR, "internal error while deciding: denied");

    private final Row[] rows;
    private final PortIndex index;
    private final Decision defaultDecision;
    private final boolean inferScheme;
    /** Whether any row holds a graphql rule: without one, no request is fenced and no host needs looking up. */
    private final boolean anyGraphql;

    Engine(Row[] rows, PortIndex index, Decision defaultDecision, boolean inferScheme) {
        this.rows = rows;
        this.index = index;
        this.defaultDecision = defaultDecision;
        this.inferScheme = inferScheme;
        this.anyGraphql = java.util.Arrays.stream(rows).anyMatch(r -> r.anyGraphql);
    }

    /** An engine that denies everything with one decision. */
    public static Engine denyAll(Decision decision) {
        return new Engine(new Row[0], new PortIndex(java.util.List.of(), new int[0], false, 0), decision, true);
    }

    /** Number of rows, for diagnostics. */
    public int size() {
        return rows.length;
    }

    /** Decides a connection ({@code connectionOnly}) or a full request; never throws. */
    public Decision decide(EgressRequest request, boolean connectionOnly) {
        try {
            return decideUnchecked(request, connectionOnly);
        } catch (RuntimeException | StackOverflowError e) {
            return INTERNAL;
        }
    }

    private Decision decideUnchecked(EgressRequest request, boolean connectionOnly) {
        if (request == null) {
            return NO_REQUEST;
        }
        int found = index.find(request.host(), request.port());
        if (found == HostName.INVALID) {
            return INVALID_HOST;
        }
        if (found == DomainIndex.NONE) {
            return defaultDecision;
        }
        if (found < 0) {
            return rows[PortIndex.otherPortRow(found)].portDeny; // the default denies; the host is listed on another port
        }
        Row row = rows[found];
        if (row.deny != null) {
            return row.deny;
        }
        if (row.anySchemeFence) {
            String scheme = scheme(request);
            for (Fence f : row.fences) {
                if (f.scheme != null && (scheme == null || !f.scheme.equalsIgnoreCase(scheme))) {
                    return f.schemeDeny;
                }
                if (f.port > 0 && request.port() != f.port) {
                    return f.portDeny; // a scheme means its default port: `https` is not ssh on 22
                }
            }
        }
        if (row.anyCallerFence) {
            String caller = request.caller();
            for (Fence f : row.fences) {
                if (f.callers != null && (caller == null || !f.callers.contains(caller))) {
                    return f.callerDeny;
                }
            }
        }
        if (connectionOnly || request.isConnection()) {
            return row.connectionAllow;
        }
        if (!row.anyRules) {
            return row.requestAllow;
        }
        // the path is read once for the whole decision, whatever the number of entries and rules
        String method = request.method();
        String path = Fence.pathOf(request);
        String[] readings = PathCheck.readings(path);
        GraphqlSubject graphql = row.anyGraphql ? new GraphqlSubject.Request(request) : null;
        Decision allow = row.requestAllow;
        for (Fence f : row.fences) {
            if (f.hasRules()) {
                Decision d = f.judge(method, path, readings, graphql);
                if (!d.allowed()) {
                    return d;
                }
                if (f.primary) {
                    allow = d;
                }
            }
        }
        return allow;
    }

    /**
     * Judges one client text frame of a websocket opened by {@code upgrade}: the upgrade is decided again
     * (a reload or halt since it was admitted applies to its frames), then every entry of the row with a
     * graphql rule on the upgrade's method and path judges the frame (spec GraphQL rule 6); an entry
     * without one has nothing to police. Never throws.
     */
    public Decision decideFrame(EgressRequest upgrade, String subprotocol, String textFrame) {
        try {
            Decision upgradeDecision = decideUnchecked(upgrade, false);
            if (!upgradeDecision.allowed()) {
                return upgradeDecision;
            }
            Row row = rowOf(upgrade);
            if (row == null || !row.anyGraphql) {
                return upgradeDecision;
            }
            String method = upgrade.method();
            String path = Fence.pathOf(upgrade);
            String[] readings = PathCheck.readings(path);
            GraphqlSubject frame = new GraphqlSubject.Frame(subprotocol, textFrame);
            Decision allow = upgradeDecision;
            for (Fence f : row.fences) {
                Decision d = f.hasGraphql() ? f.judge(method, path, readings, frame) : null;
                if (d == null) {
                    continue;
                }
                if (!d.allowed()) {
                    return d;
                }
                if (f.primary) {
                    allow = d;
                }
            }
            return allow;
        } catch (RuntimeException | StackOverflowError e) {
            return INTERNAL;
        }
    }

    /** Whether a graphql rule applies to the request's method and path, so a websocket it opens is judged per frame. */
    public boolean graphqlFenced(EgressRequest request) {
        try {
            if (!anyGraphql) {
                return false;
            }
            Row row = request == null || request.isConnection() ? null : rowOf(request);
            if (row == null || row.deny != null || !row.anyGraphql) {
                return false;
            }
            String path = Fence.pathOf(request);
            String[] readings = PathCheck.readings(path);
            for (Fence f : row.fences) {
                if (f.graphqlFenced(request.method(), path, readings)) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException e) {
            // INVARIANT: fail closed; a request that cannot be placed is treated as fenced, so its frames are
            // judged (and the judging denies).
            return true;
        }
    }

    /**
     * The index of the row the request's host and port fall in, -1 when none does (the default decides, the
     * host is invalid or named on another port only). Never throws: an error reads as -1.
     */
    public int rowIndex(EgressRequest request) {
        try {
            int found = request == null ? DomainIndex.NONE : index.find(request.host(), request.port());
            return found < 0 || found == DomainIndex.NONE ? -1 : found;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private Row rowOf(EgressRequest request) {
        int found = index.find(request.host(), request.port());
        return found < 0 || found == DomainIndex.NONE ? null : rows[found];
    }

    private String scheme(EgressRequest request) {
        String scheme = request.scheme();
        if (scheme != null || !inferScheme) {
            return scheme;
        }
        if (request.sni() != null || request.port() == 443) {
            return "https";
        }
        return request.port() == 80 ? "http" : null;
    }
}
