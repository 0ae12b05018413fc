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

    /**
     * Decides a connection: host, port, SNI and caller only. As with {@code DecisionProgram}, a decision
     * for an unknown caller ({@code null}) that is not {@code caller-not-listed} must hold for every
     * caller: the passthrough listener resolves the caller only when that reason comes back.
     */
    Decision decideConnection(EgressRequest request);

    /** Decides one request seen in the clear (plain HTTP or inside an intercepted tunnel). */
    Decision decide(EgressRequest request);

    /**
     * Whether a websocket opened by {@code upgrade} must have each client frame judged with
     * {@link #decideFrame} (a graphql rule covers its path). Defaults to true: a decider that cannot say
     * has its sockets policed, and {@link #decideFrame}'s default denies (fail closed).
     */
    default boolean graphqlFenced(EgressRequest upgrade) {
        return true;
    }

    /**
     * Judges one client-to-origin text message of a websocket opened by {@code upgrade}, with the
     * negotiated subprotocol ({@code Sec-WebSocket-Protocol} of the 101 answer, {@code null} if none).
     */
    default Decision decideFrame(EgressRequest upgrade, String subprotocol, String textFrame) {
        return Decision.deny(ReasonCode.INTERNAL_ERROR, "this decider cannot judge websocket frames");
    }

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
