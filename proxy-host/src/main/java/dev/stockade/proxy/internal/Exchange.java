package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.HostRefusal;
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
 */
public record Exchange(String listener, String host, int port, String method, String path, long startNanos) {

    /** How an exchange ended: forwarded under its decision, or refused with a reason. */
    public sealed interface Outcome permits Forwarded, Refused {
    }

    /**
     * Forwarded under an allowing {@code decision}; {@code error} is a {@link HostRefusal} code when the
     * origin failed it after the decision (the audit line then carries that instead of the rule's reason).
     */
    public record Forwarded(Decision decision, int status, long bytesIn, long bytesOut, String error)
            implements Outcome {
    }

    /** Refused: {@code reason} is the core's code or a {@link HostRefusal} code; {@code decision} may be null. */
    public record Refused(Decision decision, String reason, int status, long bytesIn, long bytesOut)
            implements Outcome {
        /** A refusal the proxy makes before or without a decision. */
        public static Refused by(HostRefusal r, int status) {
            return new Refused(null, r.code(), status, 0, 0);
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
        if (outcome instanceof Forwarded f) {
            Decision d = f.decision();
            return new AuditEvent(at, listener, sandbox, caller, host, port, method, path,
                    "allow", d.transport() == null ? null : d.transport().wire(), d.policy(), d.entryIndex(),
                    d.ruleIndex(), f.error() != null ? f.error() : d.reason().code(), f.status(), f.bytesIn(),
                    f.bytesOut(), ms);
        }
        Refused r = (Refused) outcome;
        Decision d = r.decision();
        return new AuditEvent(at, listener, sandbox, caller, host, port, method, path,
                "deny", d == null || d.transport() == null ? null : d.transport().wire(), d == null ? null : d.policy(),
                d == null ? -1 : d.entryIndex(), d == null ? -1 : d.ruleIndex(), r.reason(), r.status(), r.bytesIn(),
                r.bytesOut(), ms);
    }
}
