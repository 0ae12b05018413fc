package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import java.util.function.Supplier;

/**
 * Asks the core's program of the connection, timing each decision; a failing or silent program denies (fail closed).
 * The decision is the core's own, so its trail (policy, entry, rule, reason code) reaches the audit line.
 */
final class Decisions {
    private Decisions() {
    }

    /** A connection decision (a CONNECT); a halt denies before the program is asked. */
    static Decision connection(ProxyContext px, ConnectionInfo conn, EgressRequest r) {
        if (px.isHalted()) {
            return Decision.deny(ReasonCode.HALTED, "the organization is halted");
        }
        return timed(px, "connection", () -> conn.program().decideConnection(r));
    }

    /** A request decision. */
    static Decision request(ProxyContext px, ConnectionInfo conn, EgressRequest r) {
        return timed(px, "request", () -> conn.program().decide(r));
    }

    private static Decision timed(ProxyContext px, String kind, Supplier<Decision> decide) {
        long start = System.nanoTime();
        try {
            Decision d = decide.get();
            return d == null ? Decision.deny(ReasonCode.INTERNAL_ERROR, "no decision") : d;
        } catch (RuntimeException e) {
            return Decision.deny(ReasonCode.INTERNAL_ERROR, "the decision failed");
        } finally {
            px.metrics().decided(kind, start);
        }
    }
}
