package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.eval.RequestTarget;
import dev.stockade.policy.model.Transport;
import dev.stockade.proxy.EgressReason;
import dev.stockade.proxy.dial.DialGuard;
import java.net.InetAddress;

/**
 * Decides a CONNECT on the forward port: the authority-form target (the core's {@link RequestTarget}),
 * the connection decision (only hosts routed upstream are tunnelled, so every request inside is
 * decided), the dial guard, and never the proxy itself. Blocking (DNS): runs on the forward port's
 * blocking executor.
 */
final class ConnectStep {
    private ConnectStep() {
    }

    /** What a CONNECT leads to. */
    sealed interface Result permits Open, Refuse {
    }

    /** Open an intercepted tunnel. */
    record Open(ForwardHandler.Tunnel tunnel) implements Result {
    }

    /** Refuse with 403: {@code reason} is the decision's twin or one of the proxy's own. */
    record Refuse(String host, int port, Decision decision, EgressReason reason, String detail) implements Result {
    }

    static Result decide(ProxyContext px, ConnectionInfo conn, String uri) {
        if (!(RequestTarget.parse(uri, true) instanceof RequestTarget.Authority target)) {
            Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, "bad CONNECT target");
            return new Refuse(Responses.safe(uri), 0, d, EgressReason.of(d.reason()), "CONNECT target must be host:port");
        }
        String host = target.host().value();
        int port = target.port();
        Decision d = Decisions.connection(px, conn, EgressRequest.connection("https", host, port, null, conn.caller()));
        if (!d.allowed()) {
            return new Refuse(host, port, d, EgressReason.of(d.reason()), d.detail());
        }
        if (!d.intercept() || d.transport() != Transport.UPSTREAM) {
            // a CONNECT the proxy would have to splice blindly: only upstream hosts go through here
            return new Refuse(host, port, d, EgressReason.NOT_ROUTED_UPSTREAM,
                    "host is not routed upstream; CONNECT through the forward proxy is refused");
        }
        DialGuard.Outcome dial = px.dialGuard().check(host);
        if (dial instanceof DialGuard.Refused refused) {
            return new Refuse(host, port, d, EgressReason.DIAL_REFUSED, refused.why());
        }
        InetAddress address = ((DialGuard.Allowed) dial).address();
        if (px.isSelf(address, port)) {
            return new Refuse(host, port, d, EgressReason.DIAL_REFUSED, "the target is this proxy");
        }
        return new Open(new ForwardHandler.Tunnel(host, port, address, d));
    }
}
