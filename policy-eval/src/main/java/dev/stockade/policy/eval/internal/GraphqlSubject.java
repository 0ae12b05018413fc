package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlFenceSet;

/**
 * What the graphql rules of one decision judge: a request's payload, read on first use and shared by every
 * fence of the decision (parsed at most once), or one client text frame of an admitted websocket.
 */
sealed interface GraphqlSubject permits GraphqlSubject.Request, GraphqlSubject.Frame {

    /** The fence's verdict on this subject. */
    FenceResult judgeBy(GraphqlFenceSet fence);

    /** Whether only graphql rules judge this subject (a frame): plain rules then neither admit nor refuse. */
    boolean graphqlOnly();

    /** A request's payload, read once on first use. */
    final class Request implements GraphqlSubject {
        private final EgressRequest request;
        private GraphqlExchange exchange;

        Request(EgressRequest request) {
            this.request = request;
        }

        @Override
        public FenceResult judgeBy(GraphqlFenceSet fence) {
            if (exchange == null) {
                exchange = GraphqlExchange.of(request.method(), request.headers() == null ? null
                        : request.header("content-type"), request.query(), request.body(), request.bodyTruncated(),
                        request.isWebSocketUpgrade());
            }
            return fence.judge(exchange);
        }

        @Override
        public boolean graphqlOnly() {
            return false;
        }
    }

    /** One client text frame of a websocket, with the subprotocol the upgrade agreed. */
    record Frame(String subprotocol, String text) implements GraphqlSubject {
        @Override
        public FenceResult judgeBy(GraphqlFenceSet fence) {
            return fence.judgeFrame(subprotocol, text);
        }

        @Override
        public boolean graphqlOnly() {
            return true;
        }
    }
}
