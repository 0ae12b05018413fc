package dev.stockade.policy.model;

/** An element of a domain entry's {@code rules}: the conditions present apply together. */
public record Rule(String method, String path, GraphqlFence graphql) {

    /** A method/path rule without a GraphQL fence. */
    public static Rule of(String method, String path) {
        return new Rule(method, path, null);
    }
}
