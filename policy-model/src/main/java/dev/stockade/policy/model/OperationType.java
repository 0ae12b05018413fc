package dev.stockade.policy.model;

/** The GraphQL operation type a fence admits; {@link #ANY} ({@code *}) admits every type. */
public enum OperationType {
    /** A GraphQL query. */
    QUERY("query"),
    /** A GraphQL mutation. */
    MUTATION("mutation"),
    /** A GraphQL subscription. */
    SUBSCRIPTION("subscription"),
    /** Any operation type ({@code *} in a policy). */
    ANY("*");

    private final String wire;

    OperationType(String wire) {
        this.wire = wire;
    }

    /** The value as written in a policy document. */
    public String wire() {
        return wire;
    }

    /** Whether a fence of this type grants a WebSocket upgrade (spec: only subscription and *). */
    public boolean grantsWebSocket() {
        return this == SUBSCRIPTION || this == ANY;
    }

    /** The operation type written as {@code text}, or {@code null} if the text names none. */
    public static OperationType fromWire(String text) {
        return WireEnums.lookup(values(), OperationType::wire, text);
    }
}
