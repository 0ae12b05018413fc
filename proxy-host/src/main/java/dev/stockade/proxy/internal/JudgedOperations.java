package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.graphql.GraphqlSummaryReader;
import java.util.EnumSet;
import java.util.Set;

/**
 * The GraphQL operations a decision judged, for its audit line (docs/graphql-fence.md, "What is recorded"): only when
 * a GraphQL fence read the request or frame, allowed or denied, so that replay and suggest work from what the fence
 * saw and from nothing else. Reading never fails a request: a summary that cannot be made is left off the line.
 */
final class JudgedOperations {
    /** The denies a fence gives after reading the operations; the others (unreadable, over a limit) read none. */
    private static final Set<ReasonCode> JUDGED_DENIES = EnumSet.of(ReasonCode.GRAPHQL_OPERATION_DENIED,
            ReasonCode.GRAPHQL_NAME_DENIED, ReasonCode.GRAPHQL_FIELD_DENIED, ReasonCode.GRAPHQL_ARGUMENT_DENIED);

    private JudgedOperations() {
    }

    /**
     * The summary of a request decided by {@code program}: an allow once a graphql rule covers its method and path
     * (rule 6: then only a fence admits it), or a fence's deny; {@code null} otherwise.
     */
    static GraphqlSummary ofRequest(GraphqlSummaryReader reader, DecisionProgram program, EgressRequest er,
                                    Decision d) {
        try {
            boolean judged = d.allowed() ? program.graphqlFenced(er) : JUDGED_DENIES.contains(d.reason());
            if (!judged || er.isWebSocketUpgrade()) {
                return null;
            }
            GraphqlExchange exchange = GraphqlExchange.of(er.method(), er.header("content-type"), er.query(),
                    er.body(), er.bodyTruncated(), false);
            return reader.read(exchange).orElse(null);
        } catch (RuntimeException e) {
            return null; // the line is written without it; replay then counts the entry as not recorded
        }
    }

    /** The summary of a websocket frame the program judged (every frame is a fence's), {@code null} for none. */
    static GraphqlSummary ofFrame(GraphqlSummaryReader reader, String subprotocol, String frame, Decision d) {
        if (!d.allowed() && !JUDGED_DENIES.contains(d.reason())) {
            return null;
        }
        try {
            return reader.readFrame(subprotocol, frame).orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
