/**
 * The pattern languages of a policy (domain, path, name and value globs): one ANTLR grammar, compiled
 * once to linear-time matchers. Entry point: {@link dev.stockade.policy.glob.Glob#compile}. The
 * generated {@code Glob*Lexer/Parser/Visitor} classes are an implementation detail.
 */
package dev.stockade.policy.glob;
