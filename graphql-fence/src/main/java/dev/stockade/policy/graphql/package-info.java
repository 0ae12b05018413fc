/**
 * GraphQL operation fences: {@link dev.stockade.policy.graphql.GraphqlFenceSet} judges one
 * {@link dev.stockade.policy.graphql.GraphqlExchange} (or one websocket frame) against the conjoined
 * fences of a rule and answers a {@link dev.stockade.policy.graphql.FenceResult}. An embedding service
 * rarely calls it directly: a {@code DecisionProgram} judges GraphQL rules itself, and a service only sizes
 * {@link dev.stockade.policy.graphql.GraphqlLimits} and the {@link dev.stockade.policy.graphql.GraphqlDocumentCache}
 * through {@code CompileOptions}. {@link dev.stockade.policy.graphql.GraphqlSummaryReader} reads the
 * {@link dev.stockade.policy.graphql.GraphqlSummary} of what a fence judged (types, names, root fields; never
 * arguments) for an audit line, from which impact replays and suggest draws GraphQL rules.
 *
 * <p><b>API:</b> this package is public and versioned (docs/library.md); its values are immutable and the
 * fence set and document cache are thread-safe. {@code dev.stockade.policy.graphql.internal} (request reading,
 * the judge) is not API and may change in any release.
 */
package dev.stockade.policy.graphql;
