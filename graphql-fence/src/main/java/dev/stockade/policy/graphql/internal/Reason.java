package dev.stockade.policy.graphql.internal;

/** The stable reason codes of GraphQL denies; each equals policy-eval's {@code ReasonCode.code()}. */
public final class Reason {
    public static final String OPERATION_DENIED = "graphql-operation-denied";
    public static final String NAME_DENIED = "graphql-name-denied";
    public static final String FIELD_DENIED = "graphql-field-denied";
    public static final String ARGUMENT_DENIED = "graphql-argument-denied";
    public static final String UNPARSEABLE = "graphql-unparseable";
    public static final String LIMIT = "graphql-limit";
    public static final String PERSISTED_QUERY = "graphql-persisted-query";
    public static final String OPERATION_UNKNOWN = "graphql-operation-unknown";
    public static final String WEBSOCKET_DENIED = "graphql-websocket-denied";

    private Reason() {
    }
}
