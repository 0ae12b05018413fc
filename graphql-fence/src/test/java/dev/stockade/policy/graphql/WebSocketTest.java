package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.fence;
import static dev.stockade.policy.graphql.Fences.set;
import static dev.stockade.policy.graphql.GraphqlFenceSetTest.allowed;
import static dev.stockade.policy.graphql.GraphqlFenceSetTest.denied;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.OperationType;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebSocketTest {

    static final GraphqlFenceSet SUBSCRIPTIONS = set(fence(OperationType.SUBSCRIPTION, null, List.of("issueUpdated")));
    static final GraphqlFenceSet QUERIES = set(fence(OperationType.QUERY, null, null));

    static GraphqlExchange upgrade() {
        return GraphqlExchange.of("GET", null, null, null, false, true);
    }

    @Test
    void subscriptionOrStarGrantsTheUpgrade() {
        assertThat(SUBSCRIPTIONS.grantsWebSocket()).isTrue();
        allowed(SUBSCRIPTIONS.judge(upgrade()));
        allowed(set(fence(OperationType.ANY, null, null)).judge(upgrade()));
    }

    @Test
    void queryOrMutationDeniesTheUpgrade() {
        assertThat(QUERIES.grantsWebSocket()).isFalse();
        denied(QUERIES.judge(upgrade()), "graphql-websocket-denied");
        denied(set(fence(OperationType.MUTATION, null, null)).judge(upgrade()), "graphql-websocket-denied");
    }

    @Test
    void aConjunctionGrantsOnlyIfEveryFenceDoes() {
        GraphqlFenceSet mixed = set(fence(OperationType.ANY, null, null), fence(OperationType.QUERY, null, null));
        assertThat(mixed.grantsWebSocket()).isFalse();
        denied(mixed.judge(upgrade()), "graphql-websocket-denied");
    }

    @Test
    void housekeepingFramesPass() {
        for (String type : List.of("connection_init", "ping", "pong", "complete")) {
            allowed(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws", "{\"type\":\"" + type + "\",\"id\":\"1\"}"));
        }
        for (String type : List.of("connection_init", "stop", "connection_terminate")) {
            allowed(SUBSCRIPTIONS.judgeFrame("graphql-ws", "{\"type\":\"" + type + "\",\"id\":\"1\"}"));
        }
    }

    @Test
    void subscribeFramesAreJudgedLikeRequests() {
        allowed(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws",
                "{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { issueUpdated { id } }\"}}"));
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws",
                "{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { secretAdded { id } }\"}}"),
                "graphql-field-denied");
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws",
                "{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"mutation { issueUpdated { id } }\"}}"),
                "graphql-operation-denied");
        allowed(SUBSCRIPTIONS.judgeFrame("graphql-ws",
                "{\"id\":\"1\",\"type\":\"start\",\"payload\":{\"query\":\"subscription { issueUpdated { id } }\"}}"));
        denied(SUBSCRIPTIONS.judgeFrame("graphql-ws",
                "{\"id\":\"1\",\"type\":\"start\",\"payload\":{\"query\":\"query { issueUpdated { id } }\"}}"),
                "graphql-operation-denied");
    }

    @Test
    void messagesOfTheOtherProtocolOrUnknownOnesDeny() {
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws",
                "{\"id\":\"1\",\"type\":\"start\",\"payload\":{\"query\":\"subscription { issueUpdated { id } }\"}}"),
                "graphql-websocket-denied");
        denied(SUBSCRIPTIONS.judgeFrame("graphql-ws", "{\"type\":\"ping\"}"), "graphql-websocket-denied");
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws", "{\"type\":\"next\"}"), "graphql-websocket-denied");
        denied(SUBSCRIPTIONS.judgeFrame("mqtt", "{\"type\":\"ping\"}"), "graphql-websocket-denied");
    }

    @Test
    void unparseableFramesDeny() {
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws", "not json"), "graphql-unparseable");
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws", "{\"id\":\"1\"}"), "graphql-unparseable");
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws", null), "graphql-unparseable");
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws", "{\"type\":\"subscribe\"}"), "graphql-unparseable");
        denied(SUBSCRIPTIONS.judgeFrame("graphql-transport-ws",
                "{\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription {\"}}"), "graphql-unparseable");
    }
}
