package dev.stockade.policy.graphql;

import dev.stockade.policy.graphql.internal.ParserSetup;
import dev.stockade.policy.graphql.internal.Prepared;
import dev.stockade.policy.graphql.internal.RequestReader;

/**
 * One HTTP request as a GraphQL fence sees it. It is read and parsed lazily, once, on the first
 * {@link GraphqlFenceSet#judge}; every later fence set with the same {@link GraphqlLimits} judges that same
 * parse. Thread-safe; a race at most parses twice.
 *
 * <p>INVARIANT: the body array is owned by the exchange once handed over; callers must not modify it.
 */
public final class GraphqlExchange {

    private final String method;
    private final String contentType;
    private final String query;
    private final byte[] body;
    private final boolean bodyTruncated;
    private final boolean websocketUpgrade;

    private volatile Memo memo;

    private record Memo(GraphqlLimits limits, Prepared prepared) {
    }

    private GraphqlExchange(String method, String contentType, String query, byte[] body, boolean bodyTruncated,
                            boolean websocketUpgrade) {
        this.method = method;
        this.contentType = contentType;
        this.query = query;
        this.body = body;
        this.bodyTruncated = bodyTruncated;
        this.websocketUpgrade = websocketUpgrade;
    }

    /**
     * A request to judge.
     *
     * @param method           HTTP method ({@code GET}/{@code HEAD} read the URL parameters, others the body)
     * @param contentType      the Content-Type header, or {@code null}
     * @param query            the raw (still percent-encoded) URL query string without {@code ?}, or {@code null}
     * @param body             the body bytes as far as the host buffered them, or {@code null}
     * @param bodyTruncated    whether the host stopped buffering before the end of the body
     * @param websocketUpgrade whether the request asks for a websocket upgrade
     */
    public static GraphqlExchange of(String method, String contentType, String query, byte[] body,
                                     boolean bodyTruncated, boolean websocketUpgrade) {
        return new GraphqlExchange(method, contentType, query, body, bodyTruncated, websocketUpgrade);
    }

    /** Whether the request asks for a websocket upgrade. */
    public boolean websocketUpgrade() {
        return websocketUpgrade;
    }

    Prepared prepared(ParserSetup setup) {
        Memo current = memo;
        if (current != null && current.limits().equals(setup.limits())) {
            return current.prepared();
        }
        Prepared prepared = RequestReader.prepare(method, contentType, query, body, bodyTruncated, setup);
        memo = new Memo(setup.limits(), prepared);
        return prepared;
    }
}
