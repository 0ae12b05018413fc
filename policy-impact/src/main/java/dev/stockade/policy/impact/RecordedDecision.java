package dev.stockade.policy.impact;

import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.Verdict;
import java.time.Instant;

/**
 * One decision read from the audit trail: an egress decision, a connector tool call, or an entry replay cannot use
 * (with why). Hosts build these from their trail (the platform's rows, an exported file) and hand them to
 * {@link ImpactReplay} one at a time.
 */
public sealed interface RecordedDecision {
    /** When it was decided. */
    Instant at();

    /** The sandbox (egress) or the calling actor (tool call, {@code type:id}), for grouping. */
    String sandbox();

    /**
     * An egress decision as the proxy recorded it.
     *
     * @param listener where the proxy saw it (connection or request level, scheme)
     * @param host     the target host as requested
     * @param port     the target port
     * @param method   the HTTP method; {@code null} on a connection decision
     * @param path     the path without query; {@code null} on a connection decision
     * @param caller   the kernel-resolved caller binary, {@code null} when unknown
     * @param recorded the verdict recorded
     * @param reason   the recorded reason code (a core reason, or one of the proxy's own)
     * @param graphql  what a GraphQL fence judged in the request, {@code null} when none read it (or the entry is
     *                 older than the summary): GraphQL rules are replayed from it and suggested from it
     */
    record Egress(Instant at, String sandbox, EgressListener listener, String host, int port, String method,
            String path, String caller, Verdict recorded, String reason, GraphqlSummary graphql)
            implements RecordedDecision {

        /** A decision no GraphQL fence read. */
        public Egress(Instant at, String sandbox, EgressListener listener, String host, int port, String method,
                String path, String caller, Verdict recorded, String reason) {
            this(at, sandbox, listener, host, port, method, path, caller, recorded, reason, null);
        }
    }

    /**
     * A call of a connector tool.
     *
     * @param tool         the name the caller saw
     * @param connectorId  the connector that served it
     * @param upstreamTool the connector's own name of the tool, the one {@code allowedTools} lists
     * @param recorded     allow when the call reached the connector
     */
    record ToolCall(Instant at, String sandbox, String tool, String connectorId, String upstreamTool,
            Verdict recorded) implements RecordedDecision {
    }

    /** An entry replay cannot re-decide, kept so that it is counted, never guessed. */
    record Unreplayable(Instant at, String sandbox, NotReplayable why) implements RecordedDecision {
    }
}
