/**
 * The pattern languages of a policy (domain, path, name and value globs): one ANTLR grammar, compiled
 * once to linear-time matchers. Entry point: {@link dev.stockade.policy.glob.Glob#compile}.
 *
 * <p><b>API:</b> the hand-written types of this package are public and versioned (docs/library.md); compiled
 * patterns are immutable and thread-safe. The ANTLR-generated {@code GlobLexer}, {@code GlobParser},
 * {@code GlobVisitor} and {@code GlobBaseVisitor} are public only because the generator makes them so: they are
 * not API, carry no javadoc and are left out of the compatibility check.
 */
package dev.stockade.policy.glob;
