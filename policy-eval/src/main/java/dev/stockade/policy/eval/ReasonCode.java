package dev.stockade.policy.eval;

/** Stable reason codes carried by every {@link Decision}; the wire form is {@link #code()}. */
public enum ReasonCode {
    /** An entry allowed the request. */
    ENTRY_ALLOW("entry-allow"),
    /** A rule of an entry admitted the request. */
    RULE_ALLOW("rule-allow"),
    /** No entry matched and the network default allows. */
    DEFAULT_ALLOW("default-allow"),
    /** No entry matched and the network default denies. */
    DEFAULT_DENY("default-deny"),
    /** A deny entry matched. */
    ENTRY_DENY("entry-deny"),
    /** The entry's caller fence does not list the caller (or the caller is unknown). */
    CALLER_NOT_LISTED("caller-not-listed"),
    /** The entry has rules and none admitted the request. */
    NO_RULE_MATCHED("no-rule-matched"),
    /** The grants allow the request but the organization ceiling does not. */
    CEILING_CLIPPED("ceiling-clipped"),
    /** The entry's scheme does not match the request's scheme. */
    SCHEME_MISMATCH("scheme-mismatch"),
    /**
     * No entry matched the host on the request's port, the default denies, and an entry names the host on
     * another port ({@code api.example.com:8443} asked on 443).
     */
    PORT_NOT_ALLOWED("port-not-allowed"),
    /** A GraphQL fence covered the request and denied its operation type. */
    GRAPHQL_OPERATION_DENIED("graphql-operation-denied"),
    /** A GraphQL fence denied the operation name. */
    GRAPHQL_NAME_DENIED("graphql-name-denied"),
    /** A GraphQL fence denied a root field (or introspection). */
    GRAPHQL_FIELD_DENIED("graphql-field-denied"),
    /** A GraphQL argument condition did not hold. */
    GRAPHQL_ARGUMENT_DENIED("graphql-argument-denied"),
    /** The GraphQL request could not be parsed or read. */
    GRAPHQL_UNPARSEABLE("graphql-unparseable"),
    /** The GraphQL request exceeded a parser or body limit. */
    GRAPHQL_LIMIT("graphql-limit"),
    /** A persisted-query request without query text: nothing to inspect. */
    GRAPHQL_PERSISTED_QUERY("graphql-persisted-query"),
    /** The operationName names no operation of the document, or several operations and none named. */
    GRAPHQL_OPERATION_UNKNOWN("graphql-operation-unknown"),
    /** A WebSocket upgrade on a GraphQL-fenced path without a subscription or * fence. */
    GRAPHQL_WEBSOCKET_DENIED("graphql-websocket-denied"),
    /** A GraphQL rule covered the request but its fence could not be compiled: denied (fail closed). */
    GRAPHQL_UNSUPPORTED("graphql-unsupported"),
    /** The request could not be understood (bad host, bad URL). */
    INVALID_REQUEST("invalid-request"),
    /** The policy could not be compiled or loaded: nothing is allowed. */
    POLICY_UNAVAILABLE("policy-unavailable"),
    /** The organization is halted. */
    HALTED("halted"),
    /** An unexpected error while deciding: denied. */
    INTERNAL_ERROR("internal-error");

    private final String code;

    ReasonCode(String code) {
        this.code = code;
    }

    /** The reason whose wire form is {@code code}, or {@code null}. */
    public static ReasonCode fromCode(String code) {
        for (ReasonCode r : values()) {
            if (r.code.equals(code)) {
                return r;
            }
        }
        return null;
    }

    /** The stable wire form, e.g. {@code default-deny}. */
    public String code() {
        return code;
    }
}
