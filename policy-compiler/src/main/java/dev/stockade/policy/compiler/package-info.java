/**
 * Resolution and compilation: from the policies that reach an agent to a decision program.
 *
 * <pre>{@code
 * Resolution r = Resolver.resolve(install, ceilingPolicies, grantPolicies);
 * DecisionProgram program = PolicyCompiler.compile(r, CompileOptions.defaults());
 * Decision d = program.decideConnection(EgressRequest.connection("https", host, 443, host, caller));
 * List<String> rows = DescribeRows.of(r.effective());      // `policy effective`
 * List<Problem> warnings = PolicyLint.analyse(policy);      // `policy lint`
 * }</pre>
 *
 * <p>Merging only narrows: what several policies say about one host is conjoined (a deny anywhere
 * denies; caller fences, schemes and rule lists all apply), distinct hosts granted by different
 * policies are all granted, and the ceiling clips without granting. See docs/semantics.md, sections
 * "Resolution and the ceiling" and "Decisions".
 *
 * <p><b>API:</b> this package is public and versioned (docs/library.md); resolution and compilation are pure
 * functions of their arguments, safe to call from any thread, and their results are immutable.
 * {@code dev.stockade.policy.compiler.internal} (the merge stages) is not API and may change in any release.
 * Walk-through of embedding the engine in a JVM service: docs/library.md.
 */
package dev.stockade.policy.compiler;
