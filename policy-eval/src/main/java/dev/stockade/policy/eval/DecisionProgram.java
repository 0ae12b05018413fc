package dev.stockade.policy.eval;

import dev.stockade.policy.eval.internal.Engine;
import dev.stockade.policy.eval.internal.ProgramBuilder;

/**
 * The compiled, immutable form of an agent's effective policy; thread-safe and shareable. Built only by
 * {@link #compile} (which {@code PolicyCompiler.compile} of policy-compiler calls after resolution); hosts
 * call {@link #decideConnection} when a connection opens and {@link #decide} for each intercepted request.
 *
 * <p>Neither method throws: bad input and internal errors are denies with a reason code. A plain domain
 * decision allocates nothing.
 *
 * <p><b>Immutability and threads.</b> A program never changes after it is built: every normalisation (host
 * lower-casing, IDNA, glob compilation, the indexes) happened at compile time, and its only mutable parts are
 * bounded caches (the host memo and the GraphQL document cache of {@link CompileOptions}) that are safe for
 * concurrent use and never change a decision. Any number of threads may call every method at once without
 * locking; a program can be shared by every connection of an agent.
 *
 * <p><b>Hot swap.</b> To apply a changed policy, build a new program and replace the reference; never patch
 * one. A host keeps the current program in an {@link java.util.concurrent.atomic.AtomicReference}: request
 * threads {@code get()} it once per decision (a connection and its requests may keep the one they started
 * with), and the thread that read the new policy compiles it and {@code set()}s the result. A decision in
 * flight finishes on the program it started with; the next one sees the new program. When the new policy
 * cannot be read or is invalid, fail closed: swap in {@link #denyAll} rather than keep a stale program, unless
 * the host documents otherwise. docs/library.md shows the whole loop.
 *
 * <p>The caller is read by caller fences only. So a decision made for an unknown caller ({@code null})
 * that is not {@link ReasonCode#CALLER_NOT_LISTED} is the decision for every caller: a host may decide
 * first without the caller and resolve it (a costly walk of {@code /proc}) only when that reason comes
 * back.
 */
public final class DecisionProgram {
    private final Engine engine;

    private DecisionProgram(Engine engine) {
        this.engine = engine;
    }

    /**
     * The program of {@code effective} under {@code options} ({@code null}: the defaults): the one way to
     * build a program. Fails closed: a {@code null} policy, or one that cannot be compiled for any reason,
     * gives a program that denies everything with {@link ReasonCode#POLICY_UNAVAILABLE}.
     */
    public static DecisionProgram compile(EffectivePolicy effective, CompileOptions options) {
        if (effective == null) {
            return denyAll(ReasonCode.POLICY_UNAVAILABLE, "no policy: nothing is allowed");
        }
        try {
            return new DecisionProgram(ProgramBuilder.build(effective, options == null ? CompileOptions.defaults()
                    : options));
        } catch (RuntimeException e) {
            return denyAll(ReasonCode.POLICY_UNAVAILABLE, "the policy could not be compiled: nothing is allowed");
        }
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

    /**
     * Judges one client-to-origin text frame of a websocket opened by {@code upgrade} (its host, path and
     * headers place the frame under the same entries and rules): the upgrade is decided again, then the
     * graphql rules matching it judge the frame with the negotiated {@code subprotocol}
     * ({@code graphql-transport-ws} or {@code graphql-ws}) as spec GraphQL rule 6 judges a request: the
     * first matching graphql rule whose fence admits the frame decides. No graphql rule on the path: the
     * upgrade's decision (nothing to police). Never throws; errors deny.
     */
    public Decision decideFrame(EgressRequest upgrade, String subprotocol, String textFrame) {
        return engine.decideFrame(upgrade, subprotocol, textFrame);
    }

    /**
     * Whether a graphql rule covers the request's method and path: a websocket this request opens must then
     * have each client frame judged with {@link #decideFrame}. False for a connection-level request.
     */
    public boolean graphqlFenced(EgressRequest request) {
        return engine.graphqlFenced(request);
    }

    /**
     * The index in {@link EffectivePolicy#entries()} of the row whose patterns the request's host and port
     * match, -1 when no row does. A decision names only the entry that decided; tools that must know every
     * entry a request reached (test coverage) read the row's components through this index. Never throws.
     */
    public int entryIndexOf(EgressRequest request) {
        return engine.rowIndex(request);
    }

    /** Number of effective rows compiled in. */
    public int size() {
        return engine.size();
    }
}
