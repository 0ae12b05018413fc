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
    /** Recent hosts the index placed; null when the options turn it off. */
    private final HostMemo memo;

    Engine(Row[] rows, DomainIndex index, Decision defaultDecision, boolean inferScheme, HostMemo memo) {
        this.rows = rows;
        this.index = index;
        this.defaultDecision = defaultDecision;
        this.inferScheme = inferScheme;
        this.memo = memo;
    }

    /** An engine that denies everything with one decision. */
    public static Engine denyAll(Decision decision) {
        return new Engine(new Row[0], new DomainIndex(java.util.List.of()), decision, true, null);
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
            Decision allow = upgradeDecision;
            for (Fence f : row.fences) {
                Decision d = f.hasGraphql() ? f.judgeFrame(upgrade, subprotocol, textFrame) : null;
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
            Row row = request == null || request.isConnection() ? null : rowOf(request);
            if (row == null || row.deny != null || !row.anyGraphql) {
                return false;
            }
            for (Fence f : row.fences) {
                if (f.hasGraphql() && f.graphqlFenced(request)) {
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

    private Row rowOf(EgressRequest request) {
        int found = find(request.host());
        return found == HostName.INVALID || found == DomainIndex.NONE ? null : rows[found];
    }

    /**
     * The first row for {@code host}, {@link DomainIndex#NONE}, or {@link HostName#INVALID}: from the memo
     * when the host was placed recently, through the index otherwise.
     */
    private int find(String host) {
        if (host == null) {
            return HostName.INVALID;
        }
        if (memo == null) {
            return place(host);
        }
        int found = memo.get(host, DomainIndex.ABSENT);
        if (found == DomainIndex.ABSENT) {
            found = place(host);
            memo.put(host, found);
        }
        return found;
    }

    /** {@link #find} through the index alone. */
    private int place(String host) {
        if (HostName.endsInNumber(host) && !HostName.isCanonicalIpv4(host)) {
            return placeParsed(host); // 2130706433, 127.1, 0x7f.1, 0177.0.0.1: an address, never a name
        }
        int hit = index.exact(host);
        if (hit != DomainIndex.ABSENT) {
            return hit; // a name some exact row holds is valid and normal by construction
        }
        int found = index.scan(host);
        if (found == DomainIndex.IPV4) {
            return index.ip(host);
        }
        if (found == DomainIndex.NOT_NORMAL || found == DomainIndex.INVALID) {
            return placeParsed(host);
        }
        return found;
    }

    /**
     * Upper case, a trailing dot, a non-ASCII name, an address in another form than a canonical dotted
     * quad, or something invalid: parsed once by the host grammar (this path allocates).
     */
    private int placeParsed(String text) {
        dev.stockade.policy.eval.HostName parsed = HostName.parse(text);
        if (parsed == null) {
            return HostName.INVALID;
        }
        if (parsed.isAddress()) {
            return index.ip(parsed.value());
        }
        String host = parsed.value();
        int hit = index.exact(host);
        if (hit != DomainIndex.ABSENT) {
            return hit;
        }
        int found = index.scan(host);
        return found < 0 ? HostName.INVALID : found;
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
