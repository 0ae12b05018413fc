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
 */
package dev.stockade.policy.compiler;
