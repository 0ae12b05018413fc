package dev.stockade.policy.graphql.internal;

/**
 * One GraphQL request as the client submitted it (one element of a batch): query text, the operation
 * name it asks for ({@code null}: none given) and its variables.
 */
public record Submission(String query, String operationName, Val.ObjV variables) {
}
