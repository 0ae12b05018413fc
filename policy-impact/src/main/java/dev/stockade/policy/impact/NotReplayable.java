package dev.stockade.policy.impact;

/**
 * Why a recorded entry cannot be re-decided: replay never guesses a missing field, so such an entry is counted under
 * its reason instead of being called changed or unchanged.
 */
public enum NotReplayable {
    /** The entry lacks a field the decision needs (an older entry without method or path, no target, no time). */
    MISSING_FIELDS("missing-fields", "the entry lacks a field the decision needs"),
    /** The proxy listener is not one replay knows. */
    UNKNOWN_LISTENER("unknown-listener", "the entry names a listener replay does not know"),
    /** The recorded verdict came from the proxy or the platform's state (halt, limits, dial guard), not the policy. */
    NOT_A_POLICY_DECISION("not-a-policy-decision", "the recorded verdict was not the policy's"),
    /** A GraphQL rule of the candidate judges the request and the operation was not recorded. */
    GRAPHQL_NOT_RECORDED("graphql-not-recorded", "a graphql rule judges the request and its operation is not recorded"),
    /** A GraphQL rule with argument conditions decides the request, and argument values are never recorded. */
    GRAPHQL_ARGUMENTS_NOT_RECORDED("graphql-arguments-not-recorded",
            "an argument condition of a graphql rule decides the request and arguments are never recorded"),
    /** The recorded GraphQL summary was cut at its bound: operations beyond it were never recorded. */
    GRAPHQL_SUMMARY_TRUNCATED("graphql-summary-truncated",
            "a graphql rule judges the request and its recorded operations were cut at the summary's bound"),
    /** A platform tool: decided by the authorization table, which policies do not change. */
    PLATFORM_TOOL("platform-tool", "a platform tool is decided by the authorization table, not by policy"),
    /** A tool call refused before a connector was known: the entry names no connector tool to re-decide. */
    TOOL_NOT_IDENTIFIED("tool-not-identified", "the refused call names no connector tool"),
    /** No candidate covers the entry's sandbox or caller. */
    NO_CANDIDATE("no-candidate", "no candidate policy covers the entry's sandbox"),
    /** An audit kind that is not a policy decision, or an entry that is not an audit entry. */
    UNKNOWN_KIND("unknown-kind", "not an egress decision or a tool call");

    private final String code;
    private final String detail;

    NotReplayable(String code, String detail) {
        this.code = code;
        this.detail = detail;
    }

    /** The stable code. */
    public String code() {
        return code;
    }

    /** One line for people, lower case. */
    public String detail() {
        return detail;
    }
}
