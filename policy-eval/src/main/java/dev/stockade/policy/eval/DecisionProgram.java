package dev.stockade.policy.eval;

import dev.stockade.policy.eval.internal.Engine;
import dev.stockade.policy.eval.internal.ProgramAccess;

/**
 * The compiled, immutable form of an agent's effective policy; thread-safe and shareable. Built by
 * {@code PolicyCompiler.compile} (policy-compiler); hosts call {@link #decideConnection} when a
 * connection opens and {@link #decide} for each intercepted request.
 *
 * <p>Neither method throws: bad input and internal errors are denies with a reason code. A plain domain
 * decision allocates nothing.
 */
public final class DecisionProgram {
    static {
        ProgramAccess.install(DecisionProgram::new);
    }

    private final Engine engine;

    DecisionProgram(Engine engine) {
        this.engine = engine;
    }

    /** A program that denies every request with {@code reason} (policy unavailable, halt, ...). */
    public static DecisionProgram denyAll(ReasonCode reason, String detail) {
        return new DecisionProgram(Engine.denyAll(Decision.deny(reason, detail)));
    }

    /**
     * Decides a connection from what a tunnel or direct connection shows (host, port, scheme/SNI, caller).
     * An allow with {@code intercept} means: terminate TLS and call {@link #decide} for each request.
     */
    public Decision decideConnection(EgressRequest request) {
        return engine.decide(request, true);
    }

    /** Decides one request (connection fences, then method, path and GraphQL rules). */
    public Decision decide(EgressRequest request) {
        return engine.decide(request, false);
    }

    /** Number of effective rows compiled in. */
    public int size() {
        return engine.size();
    }
}
