package dev.stockade.proxy.internal;

import dev.stockade.proxy.dial.DialGuard;
import java.net.InetAddress;

/**
 * Where a plain request may be dialed: the dial guard's answer for the host, and never this proxy itself
 * (its admin listener included), whatever the guard allows. A pure step with a sealed result.
 */
final class DialStep {
    private DialStep() {
    }

    sealed interface Result permits Open, Refused {
    }

    /** Dial {@code address}. */
    record Open(InetAddress address) implements Result {
    }

    /** Do not dial; {@code why} is the audit's detail (no secret). */
    record Refused(String why) implements Result {
    }

    static Result check(ProxyContext px, String host, int port) {
        DialGuard.Outcome dial = px.dialGuard().check(host);
        if (dial instanceof DialGuard.Refused refused) {
            return new Refused(refused.why());
        }
        InetAddress address = ((DialGuard.Allowed) dial).address();
        return px.isSelf(address, port) ? new Refused("the target is this proxy") : new Open(address);
    }
}
