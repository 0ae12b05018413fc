package dev.stockade.policy.model;

/**
 * Every code a {@link Problem} of reading, validating, updating or linting a policy can carry; each is
 * documented in docs/problems.md (a test keeps the two in step). Codes never change meaning.
 */
public enum ProblemCode {
    /** An argument condition names a root field that the fence's {@code fields} does not admit. */
    ARGUMENT_FIELD_DENIED("argument-field-denied"),
    /** An argument condition's field is a glob; it must be an exact root field name. */
    ARGUMENT_FIELD_GLOB("argument-field-glob"),
    /** A GraphQL fence has {@code arguments} without {@code fields} beside it. */
    ARGUMENTS_WITHOUT_FIELDS("arguments-without-fields"),
    /** A {@code binaries} entry is a glob; callers are named by exact path. */
    BINARY_GLOB("binary-glob"),
    /** A {@code binaries} entry is not an absolute path. */
    BINARY_NOT_ABSOLUTE("binary-not-absolute"),
    /** A {@code binaries} entry has surrounding whitespace or a control character. */
    BINARY_WHITESPACE("binary-whitespace"),
    /** The text holds a character a policy cannot contain (NUL, ESC, DEL, C1, a lone surrogate, ...). */
    CONTROL_CHARACTER("control-character"),
    /** Warning: a credential is for a domain the policy does not allow. */
    CREDENTIAL_DOMAIN_NOT_ALLOWED("credential-domain-not-allowed"),
    /** The text is over the 1 MiB document limit. */
    DOCUMENT_TOO_LARGE("document-too-large"),
    /** A key appears more than once in one object (the first value is kept). */
    DUPLICATE_KEY("duplicate-key"),
    /** A managed-inference provider is listed more than once. */
    DUPLICATE_PROVIDER("duplicate-provider"),
    /** Warning: a connector tool is listed more than once. */
    DUPLICATE_TOOL("duplicate-tool"),
    /** A GraphQL fence's {@code arguments} list is empty. */
    EMPTY_ARGUMENTS("empty-arguments"),
    /** A {@code binaries} list is empty, so no caller could pass. */
    EMPTY_BINARIES("empty-binaries"),
    /** The text holds no document. */
    EMPTY_DOCUMENT("empty-document"),
    /** A GraphQL fence's {@code fields} list is empty. */
    EMPTY_FIELDS("empty-fields"),
    /** The policy name is empty. */
    EMPTY_NAME("empty-name"),
    /** A rule has none of {@code method}, {@code path}, {@code graphql}. */
    EMPTY_RULE("empty-rule"),
    /** A {@code rules} list is empty. */
    EMPTY_RULES("empty-rules"),
    /** A name that must not be empty is (an integration name, a {@code credentialName}). */
    EMPTY_VALUE("empty-value"),
    /** Lint warning: an entry can never match, an earlier entry covers every host it names. */
    ENTRY_UNREACHABLE("entry-unreachable"),
    /** A caller fence ({@code binaries}) on a deny entry. */
    FENCE_ON_DENY("fence-on-deny"),
    /** Lint warning: {@code fields: ["*"]} beside argument conditions leaves other root fields unbounded. */
    FIELDS_WILDCARD_WITH_ARGUMENTS("fields-wildcard-with-arguments"),
    /** A pattern is not a valid glob (or an IPv6 pattern is not an address). */
    GLOB_SYNTAX("glob-syntax"),
    /** Lint warning: a later rule admits a GraphQL path without an earlier rule's fence. */
    GRAPHQL_RULE_SHADOWED("graphql-rule-shadowed"),
    /** A defect in Stockade stopped the check; the policy is refused (fail closed). */
    INTERNAL("internal"),
    /** A key is not an environment variable name. */
    INVALID_ENV_NAME("invalid-env-name"),
    /** A name is not a GraphQL field name. */
    INVALID_FIELD_NAME("invalid-field-name"),
    /** A rule's method is not an upper-case HTTP method. */
    INVALID_METHOD("invalid-method"),
    /** An argument condition's pointer is not an RFC 6901 JSON pointer. */
    INVALID_POINTER("invalid-pointer"),
    /** A pattern's port is not a decimal number from 1 to 65535. */
    INVALID_PORT("invalid-port"),
    /** A scheme is not a lower-case URI scheme. */
    INVALID_SCHEME("invalid-scheme"),
    /** A tool name is empty or has surrounding whitespace or a control character. */
    INVALID_TOOL_NAME("invalid-tool-name"),
    /** A value that must be a UUID is not one. */
    INVALID_UUID("invalid-uuid"),
    /** A parser limit was exceeded (a number or key too long). */
    LIMIT_EXCEEDED("limit-exceeded"),
    /** Lint warning: the unreachable-entry check gave up on in-label wildcards; the rest ran. */
    LINT_INCOMPLETE("lint-incomplete"),
    /** A required key is missing. */
    MISSING_KEY("missing-key"),
    /** The text holds more than one document. */
    MULTIPLE_DOCUMENTS("multiple-documents"),
    /** A key that cannot be null is. */
    NULL_VALUE("null-value"),
    /** A domain pattern is a URL or holds a path, query or fragment. */
    PATTERN_IS_URL("pattern-is-url"),
    /** Lint warning: an entry's port is the default port of the other scheme. */
    PORT_CONTRADICTS_SCHEME("port-contradicts-scheme"),
    /** {@code providers} does not include the primary provider. */
    PRIMARY_PROVIDER_NOT_LISTED("primary-provider-not-listed"),
    /** Warning: {@code rules} on a deny entry are ignored, it denies every request. */
    RULES_ON_DENY("rules-on-deny"),
    /** Lint warning: an entry with rules but direct transport, intercepted as upstream to enforce them. */
    RULES_ON_DIRECT("rules-on-direct"),
    /** Any other violation of the JSON Schema. */
    SCHEMA("schema"),
    /** Warning: {@code scheme} on a deny entry is ignored, it denies every scheme. */
    SCHEME_ON_DENY("scheme-on-deny"),
    /** The text is not YAML or JSON; the message is the parser's. */
    SYNTAX("syntax"),
    /** The document nests deeper than 64 levels. */
    TOO_DEEP("too-deep"),
    /** The document has more than 100000 values. */
    TOO_MANY_NODES("too-many-nodes"),
    /** Warning: more problems were found than are reported. */
    TOO_MANY_PROBLEMS("too-many-problems"),
    /** A tool name has a wildcard; tools are granted by exact name. */
    TOOL_WILDCARD("tool-wildcard"),
    /** Warning: {@code transport} on a deny entry is ignored. */
    TRANSPORT_ON_DENY("transport-on-deny"),
    /** A key the schema (or an update body) does not know. */
    UNKNOWN_KEY("unknown-key"),
    /** A value outside a closed set (a verdict, a transport, ...). */
    UNKNOWN_VALUE("unknown-value"),
    /** A YAML value Stockade does not read (a tag such as {@code !!binary}). */
    UNSUPPORTED_VALUE("unsupported-value"),
    /** A value of the wrong type (booleans are {@code true} and {@code false} only). */
    WRONG_TYPE("wrong-type"),
    /** A YAML alias; aliases are not supported. */
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
