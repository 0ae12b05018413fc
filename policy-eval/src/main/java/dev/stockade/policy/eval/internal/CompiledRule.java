package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.graphql.FenceReason;
import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.graphql.GraphqlFenceSet;
import dev.stockade.policy.model.Verdict;

/**
 * One element of an entry's {@code rules} in compiled form, with the decisions it can produce built in
 * advance, so that judging a request allocates nothing unless a GraphQL fence refuses it.
 *
 * @param index       the rule's index in the entry's {@code rules}, named by its decisions
 * @param method      the upper-case method the rule requires, {@code null} for any
 * @param path        the compiled path glob, {@code null} for any path
 * @param broken      the rule's path glob did not compile: the rule never matches (fail closed)
 * @param graphql     whether the rule has a graphql block (spec GraphQL rule 6: then only it can admit)
 * @param fence       the rule's compiled GraphQL fence; {@code null} without a graphql block or when it
 *                    could not be compiled (the rule then refuses with {@code unsupported})
 * @param allow       the allow the rule gives
 * @param unsupported the deny of a graphql rule whose fence could not be compiled
 */
record CompiledRule(int index, String method, Glob path, boolean broken, boolean graphql, GraphqlFenceSet fence,
        Decision allow, Decision unsupported) {

    /** Whether the rule covers a request's method and path ({@code readings} from {@link PathCheck#readings}). */
    boolean matches(String requestMethod, String requestPath, String[] readings) {
        return !broken && (method == null || method.equals(requestMethod))
                && (path == null || PathCheck.matches(path, requestPath, readings));
    }

    /**
     * The deny of this graphql rule when its fence refused: the fence's typed reason, charged to the entry
     * {@code template} names (policy and index) and to this rule.
     */
    Decision refusal(FenceResult result, Decision template) {
        ReasonCode code = reasonOf(result.reason());
        String detail = result.detail() == null ? code.code() : result.detail();
        return new Decision(Verdict.DENY, null, false, code, template.policy(), template.entryIndex(), index, detail);
    }

    /** The decision's reason for a fence's refusal; a refusal without a reason reads as unparseable (fail closed). */
    static ReasonCode reasonOf(FenceReason reason) {
        if (reason == null) {
            return ReasonCode.GRAPHQL_UNPARSEABLE;
        }
        return switch (reason) {
            case OPERATION_DENIED -> ReasonCode.GRAPHQL_OPERATION_DENIED;
            case NAME_DENIED -> ReasonCode.GRAPHQL_NAME_DENIED;
            case FIELD_DENIED -> ReasonCode.GRAPHQL_FIELD_DENIED;
            case ARGUMENT_DENIED -> ReasonCode.GRAPHQL_ARGUMENT_DENIED;
            case UNPARSEABLE -> ReasonCode.GRAPHQL_UNPARSEABLE;
            case LIMIT -> ReasonCode.GRAPHQL_LIMIT;
            case PERSISTED_QUERY -> ReasonCode.GRAPHQL_PERSISTED_QUERY;
            case OPERATION_UNKNOWN -> ReasonCode.GRAPHQL_OPERATION_UNKNOWN;
            case WEBSOCKET_DENIED -> ReasonCode.GRAPHQL_WEBSOCKET_DENIED;
        };
    }
}
