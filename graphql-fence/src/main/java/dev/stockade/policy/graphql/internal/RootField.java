package dev.stockade.policy.graphql.internal;

/**
 * One occurrence of a root field of an operation (aliases dropped, fragments expanded), with its
 * arguments resolved: variables replaced by their values, the arguments gathered in one object.
 */
public record RootField(String name, Val.ObjV arguments) {
}
