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

    /**
     * User input for a detail line, in backticks: control characters and backticks escaped (a detail stays
     * one line), cut at 64 characters.
     */
    public static String quote(String input) {
        StringBuilder out = new StringBuilder(Math.min(input.length(), 64) + 3).append('`');
        for (int i = 0; i < input.length() && i < 64; i++) {
            char c = input.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '`' || c == '\\' || Character.isSurrogate(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append(input.length() > 64 ? "...`" : "`").toString();
    }
}
