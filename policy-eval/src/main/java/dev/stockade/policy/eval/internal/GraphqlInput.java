package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.graphql.GraphqlExchange;

/**
 * The GraphQL view of one request, built on first use and shared by every fence of a row, so that a
 * request several policies fence is read and parsed once.
 */
final class GraphqlInput {
    private final EgressRequest request;
    private GraphqlExchange exchange;

    GraphqlInput(EgressRequest request) {
        this.request = request;
    }

    GraphqlExchange exchange() {
        if (exchange == null) {
            String upgrade = request.header("upgrade");
            exchange = GraphqlExchange.of(request.method(), request.header("content-type"), request.query(),
                    request.body(), request.bodyTruncated(), upgrade != null && upgrade.equalsIgnoreCase("websocket"));
        }
        return exchange;
    }
}
