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
    private final DomainIndex index;
    private final Decision defaultDecision;
    private final boolean inferScheme;

    Engine(Row[] rows, DomainIndex index, Decision defaultDecision, boolean inferScheme) {
        this.rows = rows;
        this.index = index;
        this.defaultDecision = defaultDecision;
        this.inferScheme = inferScheme;
    }

    /** An engine that denies everything with one decision. */
    public static Engine denyAll(Decision decision) {
        return new Engine(new Row[0], new DomainIndex(java.util.List.of()), decision, true);
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
        int found = find(request.host());
        if (found == HostName.INVALID) {
            return INVALID_HOST;
        }
        if (found == DomainIndex.NONE) {
            return defaultDecision;
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
        Decision allow = row.requestAllow;
        Fence.GraphqlRequest graphql = row.anyGraphql ? new Fence.GraphqlRequest() : null;
        for (Fence f : row.fences) {
            if (f.hasRules()) {
                Decision d = f.judge(request, graphql);
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

    /** The first row for {@code host}, {@link DomainIndex#NONE}, or {@link HostName#INVALID}. */
    private int find(String host) {
        if (host == null) {
            return HostName.INVALID;
        }
        Integer hit = index.exact(host);
        if (hit != null) {
            return hit; // a name some exact row holds is valid and normal by construction
        }
        int found = index.scan(host);
        if (found == DomainIndex.NOT_NORMAL) {
            // Upper case, a trailing dot or a non-ASCII name: normalise once (this path allocates).
            host = HostName.normalise(host);
            if (host == null) {
                return HostName.INVALID;
            }
            hit = index.exact(host);
            if (hit != null) {
                return hit;
            }
            found = index.scan(host);
        }
        if (found == DomainIndex.IPV4) {
            return index.ip(host);
        }
        if (found == DomainIndex.INVALID || found == DomainIndex.NOT_NORMAL) {
            String ip = HostName.isIpv6(host) ? HostName.ipv6Key(host) : null;
            return ip == null ? HostName.INVALID : index.ip(ip);
        }
        return found;
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
