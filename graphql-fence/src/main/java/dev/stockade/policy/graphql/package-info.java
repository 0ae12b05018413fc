/**
 * GraphQL operation fences: {@link dev.stockade.policy.graphql.GraphqlFenceSet} judges one
 * {@link dev.stockade.policy.graphql.GraphqlExchange} (or one websocket frame) against the conjoined
 * fences of a rule and answers a {@link dev.stockade.policy.graphql.FenceResult}. Everything else of the
 * module lives in {@code internal} and is not API.
 */
package dev.stockade.policy.graphql;
