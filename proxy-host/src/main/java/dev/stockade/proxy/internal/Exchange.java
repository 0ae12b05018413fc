package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.EgressReason;
import java.time.Instant;

/**
 * One exchange the proxy handles (a connection decision, a request, a judged frame) and the one place
 * that turns it and its {@link Outcome} into an audit line.
 *
 * @param listener    {@code http}, {@code connect}, {@code intercepted}, {@code passthrough}, ...
 * @param host        target host in normal form, {@code -} when not known yet
 * @param port        target port, 0 when not known yet
 * @param method      HTTP method, {@code null} for a connection
 * @param path        path without query, {@code null} for a connection
 * @param startNanos  {@link System#nanoTime()} when the exchange began
 * @param graphql     what a GraphQL fence judged in the request or frame, {@code null} when none read it
 */
public record Exchange(String listener, String host, int port, String method, String path, long startNanos,
                       GraphqlSummary graphql) {

    /** An exchange no GraphQL fence has read (yet). */
    public Exchange(String listener, String host, int port, String method, String path, long startNanos) {
        this(listener, host, port, method, path, startNanos, null);
    }

    /** This exchange with what a GraphQL fence judged in it ({@code null}: nothing). */
    public Exchange withGraphql(GraphqlSummary summary) {
        return new Exchange(listener, host, port, method, path, startNanos, summary);
    }

    /** How an exchange ended: forwarded under its decision, or refused with a reason. */
    public sealed interface Outcome permits Forwarded, Refused {
    }

    /**
     * Forwarded under an allowing {@code decision}; {@code error} is the proxy's own reason when the
     * origin failed it after the decision (the audit line then carries that instead of the rule's reason).
     */
    public record Forwarded(Decision decision, int status, long bytesIn, long bytesOut, EgressReason error)
            implements Outcome {
    }

    /** Refused: {@code reason} is the decision's twin or the proxy's own; {@code decision} may be null. */
    public record Refused(Decision decision, EgressReason reason, int status, long bytesIn, long bytesOut)
            implements Outcome {
        /** A refusal the proxy makes before or without a decision. */
        public static Refused by(EgressReason r, int status) {
            return new Refused(null, r, status, 0, 0);
        }
    }

    /** The audit line of this exchange on {@code conn} as of now (sandbox and caller from the connection). */
    public AuditEvent line(ConnectionInfo conn, Outcome outcome) {
        return line(Instant.now(), (System.nanoTime() - startNanos) / 1_000_000, conn.sandbox(), conn.caller(),
                outcome);
    }

    /**
     * Records the line as of now once {@code conn}'s caller is known, without waiting for it (a
     * passthrough connection learns its caller from a walk of {@code /proc}, never on an event loop).
     */
    public void recordWhenCallerKnown(ProxyContext px, ConnectionInfo conn, Outcome outcome) {
        Instant at = Instant.now();
        long ms = (System.nanoTime() - startNanos) / 1_000_000;
        conn.whenCallerKnown(caller -> px.record(line(at, ms, conn.sandbox(), caller, outcome)));
    }

    private AuditEvent line(Instant at, long ms, String sandbox, String caller, Outcome outcome) {
        AuditEvent.Builder b = AuditEvent.builder().time(at).listener(listener).sandbox(sandbox).caller(caller)
                .target(host, port).method(method).path(path).durationMs(ms).graphql(graphql);
        if (outcome instanceof Forwarded f) {
            // an origin failure after the decision is audited instead of the rule's allow reason
            return trail(b, f.decision()).verdict("allow")
                    .reason(f.error() != null ? f.error() : EgressReason.of(f.decision().reason()))
                    .status(f.status()).bytes(f.bytesIn(), f.bytesOut()).build();
        }
        Refused r = (Refused) outcome;
        return trail(b, r.decision()).verdict("deny").reason(r.reason()).status(r.status())
                .bytes(r.bytesIn(), r.bytesOut()).build();
    }

    /** The decision's trail (transport, policy, entry, rule); none when the proxy refused without a decision. */
    private static AuditEvent.Builder trail(AuditEvent.Builder b, Decision d) {
        if (d == null) {
            return b;
        }
        return b.transport(d.transport() == null ? null : d.transport().wire()).policy(d.policy())
                .entry(d.entryIndex()).rule(d.ruleIndex());
    }
}
