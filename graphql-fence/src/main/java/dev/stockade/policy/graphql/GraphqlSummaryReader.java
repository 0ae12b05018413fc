package dev.stockade.policy.graphql;

import dev.stockade.policy.graphql.internal.Frames;
import dev.stockade.policy.graphql.internal.ParserSetup;
import dev.stockade.policy.graphql.internal.SummaryReplay;
import java.util.Optional;

/**
 * Reads the {@link GraphqlSummary} of what a fence judged, for an audit line, with the fence's own reader: a host
 * builds one per set of {@link GraphqlLimits} (the limits its programs were compiled with, so that it reads what the
 * fences read) and keeps it. An exchange already judged under the same limits is not read again, and query text is
 * parsed only when {@code cache} has not seen it. Immutable and thread-safe.
 */
public final class GraphqlSummaryReader {

    private final ParserSetup setup;

    private GraphqlSummaryReader(ParserSetup setup) {
        this.setup = setup;
    }

    /** A reader under {@code limits} keeping parsed documents in {@code cache}. */
    public static GraphqlSummaryReader of(GraphqlLimits limits, GraphqlDocumentCache cache) {
        return new GraphqlSummaryReader(new ParserSetup(limits, cache.store()));
    }

    /**
     * The operations of a request; empty for a websocket upgrade (its body is not judged) and for a request that
     * could not be read (the fence denied it before judging any operation).
     */
    public Optional<GraphqlSummary> read(GraphqlExchange exchange) {
        if (exchange.websocketUpgrade()) {
            return Optional.empty();
        }
        return SummaryReplay.of(exchange.prepared(setup));
    }

    /** The operations of one client frame of a GraphQL websocket; empty for housekeeping and unreadable frames. */
    public Optional<GraphqlSummary> readFrame(String subprotocol, String textFrame) {
        return SummaryReplay.of(Frames.prepare(subprotocol, textFrame, setup));
    }
}
