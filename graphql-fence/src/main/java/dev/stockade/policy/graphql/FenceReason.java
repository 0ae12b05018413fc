package dev.stockade.policy.graphql;

/**
 * Why a GraphQL fence refused a request or frame, typed at the source so that policy-eval maps each to its
 * reason code exhaustively instead of reading a string back; {@link #code()} is the stable wire form.
 */
public enum FenceReason {
    /** No fence admits the operation's type. */
    OPERATION_DENIED("graphql-operation-denied"),
    /** The operation's name is not admitted by the name glob. */
    NAME_DENIED("graphql-name-denied"),
    /** A root field (or an introspection field) is not admitted. */
    FIELD_DENIED("graphql-field-denied"),
    /** An argument condition did not hold. */
    ARGUMENT_DENIED("graphql-argument-denied"),
    /** The request or its document could not be read. */
    UNPARSEABLE("graphql-unparseable"),
    /** A body, frame, parser or matching limit was exceeded. */
    LIMIT("graphql-limit"),
    /** A persisted query without query text: nothing to inspect. */
    PERSISTED_QUERY("graphql-persisted-query"),
    /** The operationName names no operation of the document, or several operations and none is named. */
    OPERATION_UNKNOWN("graphql-operation-unknown"),
    /** A websocket upgrade or frame the fences do not admit. */
    WEBSOCKET_DENIED("graphql-websocket-denied");

    private final String code;

    FenceReason(String code) {
        this.code = code;
    }

    /** The stable wire form, equal to policy-eval's {@code ReasonCode.code()} for the same reason. */
    public String code() {
        return code;
    }
}
