package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.arg;
import static dev.stockade.policy.graphql.Fences.fence;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.stockade.policy.model.OperationType;
import java.util.List;
import java.util.Set;

/**
 * Fuzzes request bodies through the whole fence (reading, parsing, judging). Runs the seeds in regression
 * mode under plain {@code mvn test}; {@code JAZZER_FUZZ=1} explores.
 */
class RequestBodyFuzzTest {

    static final Set<String> CODES = Set.of("graphql-operation-denied", "graphql-name-denied", "graphql-field-denied",
            "graphql-argument-denied", "graphql-unparseable", "graphql-limit", "graphql-persisted-query",
            "graphql-operation-unknown", "graphql-websocket-denied");

    static final GraphqlFenceSet FENCES = GraphqlFenceSet.allOf(List.of(
            fence(OperationType.ANY, null, List.of("repository", "viewer", "create*"),
                    arg("repository", "/owner", "acme"), arg("createIssue", "/input/title", "bug: *"))),
            new GraphqlLimits(64 * 1024, 20_000, 2_000, 5_000, 64));

    @FuzzTest(maxDuration = "30s")
    void fuzzRequestBody(FuzzedDataProvider data) {
        String contentType = data.pickValue(new String[] {"application/json", "application/graphql", "text/plain"});
        boolean get = data.consumeBoolean();
        String subprotocol = data.pickValue(new String[] {"graphql-transport-ws", "graphql-ws"});
        byte[] body = data.consumeRemainingAsBytes();
        GraphqlExchange exchange = get
                ? GraphqlExchange.of("GET", null, new String(body, java.nio.charset.StandardCharsets.UTF_8), null,
                        false, false)
                : GraphqlExchange.of("POST", contentType, null, body, false, false);
        check(FENCES.judge(exchange));
        check(FENCES.judge(exchange)); // memoised: the same verdict again
        check(FENCES.judgeFrame(subprotocol, new String(body, java.nio.charset.StandardCharsets.UTF_8)));
    }

    private static void check(FenceResult result) {
        assertThat(result).isNotNull();
        if (!result.allowed()) {
            assertThat(CODES).contains(result.reasonCode());
            assertThat(result.detail()).isNotBlank().doesNotContain("\n");
        }
    }
}
