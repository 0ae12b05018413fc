package dev.stockade.policy.model;

/**
 * Every code a {@link Problem} of reading, validating, updating or linting a policy can carry; each is
 * documented in docs/problems.md (a test keeps the two in step). Codes never change meaning.
 */
public enum ProblemCode {
    ARGUMENT_FIELD_DENIED("argument-field-denied"),
    ARGUMENT_FIELD_GLOB("argument-field-glob"),
    ARGUMENTS_WITHOUT_FIELDS("arguments-without-fields"),
    BINARY_GLOB("binary-glob"),
    BINARY_NOT_ABSOLUTE("binary-not-absolute"),
    BINARY_WHITESPACE("binary-whitespace"),
    CONTROL_CHARACTER("control-character"),
    CREDENTIAL_DOMAIN_NOT_ALLOWED("credential-domain-not-allowed"),
    DOCUMENT_TOO_LARGE("document-too-large"),
    DUPLICATE_KEY("duplicate-key"),
    DUPLICATE_PROVIDER("duplicate-provider"),
    DUPLICATE_TOOL("duplicate-tool"),
    EMPTY_ARGUMENTS("empty-arguments"),
    EMPTY_BINARIES("empty-binaries"),
    EMPTY_DOCUMENT("empty-document"),
    EMPTY_FIELDS("empty-fields"),
    EMPTY_NAME("empty-name"),
    EMPTY_RULE("empty-rule"),
    EMPTY_RULES("empty-rules"),
    EMPTY_VALUE("empty-value"),
    ENTRY_UNREACHABLE("entry-unreachable"),
    FENCE_ON_DENY("fence-on-deny"),
    FIELDS_WILDCARD_WITH_ARGUMENTS("fields-wildcard-with-arguments"),
    GLOB_SYNTAX("glob-syntax"),
    GRAPHQL_RULE_SHADOWED("graphql-rule-shadowed"),
    INTERNAL("internal"),
    INVALID_ENV_NAME("invalid-env-name"),
    INVALID_FIELD_NAME("invalid-field-name"),
    INVALID_METHOD("invalid-method"),
    INVALID_POINTER("invalid-pointer"),
    INVALID_PORT("invalid-port"),
    INVALID_SCHEME("invalid-scheme"),
    INVALID_TOOL_NAME("invalid-tool-name"),
    INVALID_UUID("invalid-uuid"),
    LIMIT_EXCEEDED("limit-exceeded"),
    LINT_INCOMPLETE("lint-incomplete"),
    MISSING_KEY("missing-key"),
    MULTIPLE_DOCUMENTS("multiple-documents"),
    NULL_VALUE("null-value"),
    PATTERN_IS_URL("pattern-is-url"),
    PORT_CONTRADICTS_SCHEME("port-contradicts-scheme"),
    PRIMARY_PROVIDER_NOT_LISTED("primary-provider-not-listed"),
    RULES_ON_DENY("rules-on-deny"),
    RULES_ON_DIRECT("rules-on-direct"),
    SCHEMA("schema"),
    SCHEME_ON_DENY("scheme-on-deny"),
    SYNTAX("syntax"),
    TOO_DEEP("too-deep"),
    TOO_MANY_NODES("too-many-nodes"),
    TOO_MANY_PROBLEMS("too-many-problems"),
    TOOL_WILDCARD("tool-wildcard"),
    TRANSPORT_ON_DENY("transport-on-deny"),
    UNKNOWN_KEY("unknown-key"),
    UNKNOWN_VALUE("unknown-value"),
    UNSUPPORTED_VALUE("unsupported-value"),
    WRONG_TYPE("wrong-type"),
    YAML_ALIAS("yaml-alias");

    private final String code;

    ProblemCode(String code) {
        this.code = code;
    }

    /** The stable kebab-case code, as written in problems, RFC 9457 types and SARIF rule ids. */
    public String code() {
        return code;
    }

    /** Whether {@code problem} carries this code. */
    public boolean is(Problem problem) {
        return problem.code().equals(code);
    }
}
