package dev.stockade.proxy;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import java.util.Set;

/**
 * What the proxy asks of the core: a connection decision and a request decision. The proxy holds no
 * policy logic; it adapts traffic to {@link EgressRequest} and acts on the {@link Decision}.
 */
public interface Decider {

    /** Decides a connection: host, port, SNI and caller only. */
    Decision decideConnection(EgressRequest request);

    /** Decides one request seen in the clear (plain HTTP or inside an intercepted tunnel). */
    Decision decide(EgressRequest request);

    /** Names of the credentials the effective policy binds; the proxy sets their header. */
    default Set<String> boundCredentials() {
        return Set.of();
    }

    /** A decider that denies everything with one reason (no policy, invalid policy, halt). */
    static Decider denyAll(ReasonCode reason, String detail) {
        Decision deny = Decision.deny(reason, detail);
        return new Decider() {
            @Override
            public Decision decideConnection(EgressRequest request) {
                return deny;
            }

            @Override
            public Decision decide(EgressRequest request) {
                return deny;
            }
        };
    }
}
