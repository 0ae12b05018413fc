/**
 * The decision program and its contract: {@link dev.stockade.policy.eval.EgressRequest} in,
 * {@link dev.stockade.policy.eval.Decision} out.
 *
 * <p>A {@link dev.stockade.policy.eval.DecisionProgram} is built by {@code PolicyCompiler.compile}
 * from an {@link dev.stockade.policy.eval.EffectivePolicy} (rows in first-match order). Hosts call
 * {@code decideConnection} when a connection opens (host, port, scheme/SNI, caller) and, when that
 * allow says {@code intercept}, {@code decide} for each request (method, path, headers, body). Every
 * decision names its policy, entry, rule and a stable {@link dev.stockade.policy.eval.ReasonCode};
 * nothing throws, and a plain domain decision allocates nothing.
 *
 * <p><b>API:</b> this package is public and versioned (docs/library.md). Every type is immutable and
 * thread-safe; a program is swapped whole, never changed (see {@link dev.stockade.policy.eval.DecisionProgram}).
 * {@code dev.stockade.policy.eval.internal} (the engine, the index, the program builder) is not API and may
 * change in any release.
 */
package dev.stockade.policy.eval;
