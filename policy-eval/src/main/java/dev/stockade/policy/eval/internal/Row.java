package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.Decision;

/** One compiled effective row: an outright deny, or an allow with the fences of every component. */
final class Row {
    /** Non-null when the row denies whatever the request. */
    final Decision deny;
    /** The allow of a connection-level decision. */
    final Decision connectionAllow;
    /** The allow of a request-level decision when the primary component has no rules. */
    final Decision requestAllow;
    final Fence[] fences;
    /** For a row on one port: the deny of a host it names asked on another port, when nothing else matched. */
    final Decision portDeny;
    final boolean anySchemeFence;
    final boolean anyCallerFence;
    final boolean anyRules;
    final boolean anyGraphql;

    Row(Decision deny, Decision connectionAllow, Decision requestAllow, Fence[] fences, Decision portDeny) {
        this.deny = deny;
        this.portDeny = portDeny;
        this.connectionAllow = connectionAllow;
        this.requestAllow = requestAllow;
        this.fences = fences;
        boolean s = false;
        boolean c = false;
        boolean r = false;
        boolean g = false;
        for (Fence f : fences) {
            s |= f.scheme != null;
            c |= f.callers != null;
            r |= f.hasRules();
            g |= f.hasGraphql();
        }
        anyGraphql = g;
        anySchemeFence = s;
        anyCallerFence = c;
        anyRules = r;
    }
}
