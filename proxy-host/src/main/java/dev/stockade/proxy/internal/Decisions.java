package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import java.util.function.Supplier;

/** Asks the connection's decider, timing each decision; a failing or silent decider denies (fail closed). */
final class Decisions {
    private Decisions() {
    }

    /** A connection decision (a CONNECT); a halt denies before the decider is asked. */
    static Decision connection(ProxyContext px, ConnectionInfo conn, EgressRequest r) {
        if (px.isHalted()) {
            return Decision.deny(ReasonCode.HALTED, "the organization is halted");
        }
        return timed(px, "connection", () -> conn.decider().decideConnection(r));
    }

    /** A request decision. */
    static Decision request(ProxyContext px, ConnectionInfo conn, EgressRequest r) {
        return timed(px, "request", () -> conn.decider().decide(r));
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
