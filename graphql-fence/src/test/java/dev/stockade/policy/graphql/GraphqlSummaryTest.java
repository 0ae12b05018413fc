package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.fence;
import static dev.stockade.policy.graphql.Fences.post;
import static dev.stockade.policy.graphql.Fences.query;
import static dev.stockade.policy.graphql.Fences.quote;
import static dev.stockade.policy.graphql.Fences.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.policy.graphql.GraphqlSummary.Operation;
import dev.stockade.policy.model.OperationType;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class GraphqlSummaryTest {

    static final GraphqlSummaryReader READER = GraphqlSummaryReader.of(GraphqlLimits.defaults(),
            GraphqlDocumentCache.bounded(1 << 20));

    static GraphqlSummary read(GraphqlExchange exchange) {
        return READER.read(exchange).orElseThrow();
    }

    static Operation op(int element, OperationType type, String name, String... fields) {
        return new Operation(element, type, name, List.of(fields));
    }

    @Test
    void aliasesAreLookedThroughAndEachRootFieldIsKeptOnce() {
        GraphqlSummary s = read(query("query Repos { mine: repository(owner: \"acme\", name: \"app\") { id }"
                + " theirs: repository(owner: \"other\", name: \"x\") { id } viewer { login } }"));
        assertThat(s).isEqualTo(new GraphqlSummary(List.of(op(0, OperationType.QUERY, "Repos", "repository",
                "viewer")), false));
    }

    @Test
    void fragmentsAtTheRootAreExpandedNestedFieldsAreNot() {
        GraphqlSummary s = read(query("mutation File { ...Create ... on Mutation { addComment(input: {}) { id } } }"
                + " fragment Create on Mutation { createIssue(input: {}) { issue { url } } }"));
        assertThat(s.operations()).hasSize(1);
        assertThat(s.operations().get(0).type()).isEqualTo(OperationType.MUTATION);
        assertThat(s.operations().get(0).fields()).containsExactlyInAnyOrder("createIssue", "addComment");
    }

    @Test
    void theShorthandIsAnUnnamedQuery() {
        assertThat(read(query("{ viewer { login } }"))).isEqualTo(new GraphqlSummary(
                List.of(op(0, OperationType.QUERY, null, "viewer")), false));
    }

    @Test
    void everyOperationOfTheDocumentIsKeptNotOnlyTheSelectedOne() {
        GraphqlSummary s = read(post("query A { viewer } mutation B { deleteRepository(input: {}) { id } }", "A",
                null));
        assertThat(s.operations()).containsExactly(op(0, OperationType.QUERY, "A", "viewer"),
                op(0, OperationType.MUTATION, "B", "deleteRepository"));
    }

    @Test
    void aBatchKeepsOneElementPerSubmittedRequest() {
        GraphqlSummary s = read(post("[{\"query\":\"{ viewer }\"},{\"query\":\"subscription S { issueUpdated }\"}]"));
        assertThat(s.operations()).containsExactly(op(0, OperationType.QUERY, null, "viewer"),
                op(1, OperationType.SUBSCRIPTION, "S", "issueUpdated"));
        assertThat(s.types()).containsExactly(OperationType.QUERY, OperationType.SUBSCRIPTION);
    }

    @Test
    void argumentValuesAndVariablesNeverReachTheSummary() {
        GraphqlExchange secret = post("query Q($token: String!) { search(query: $token, type: ISSUE, first: 1)"
                + " { issueCount } createIssue(input: {title: \"s3cr3t-literal\"}) { id } }", "Q",
                "{\"token\":\"ghp_hunter2\"}");
        GraphqlSummary s = read(secret);
        assertThat(s.operations()).containsExactly(op(0, OperationType.QUERY, "Q", "search", "createIssue"));
        assertThat(s.toString()).doesNotContain("ghp_hunter2", "s3cr3t-literal", "ISSUE", "token", "first");
    }

    @Test
    void overTheOperationCapTheSummaryKeepsAPrefixAndSaysSo() {
        String batch = IntStream.range(0, GraphqlSummary.MAX_OPERATIONS + 8)
                .mapToObj(i -> "{\"query\":\"query Q" + i + " { viewer }\"}").collect(Collectors.joining(",", "[", "]"));
        GraphqlSummary s = read(post(batch));
        assertThat(s.truncated()).isTrue();
        assertThat(s.operations()).hasSize(GraphqlSummary.MAX_OPERATIONS);
        assertThat(s.operations().get(31)).isEqualTo(op(31, OperationType.QUERY, "Q31", "viewer"));
        assertThat(s.replayRequest("POST")).isEmpty();
    }

    @Test
    void overTheFieldCapOrWithALongNameTheSummaryIsTruncated() {
        String many = IntStream.range(0, GraphqlSummary.MAX_FIELDS + 1).mapToObj(i -> "f" + i)
                .collect(Collectors.joining(" ", "{ ", " }"));
        GraphqlSummary wide = read(query(many));
        assertThat(wide.truncated()).isTrue();
        assertThat(wide.operations()).isEmpty();
        GraphqlSummary longName = read(query("query " + "N".repeat(GraphqlSummary.MAX_NAME_LENGTH + 1)
                + " { viewer }"));
        assertThat(longName.truncated()).isTrue();
        assertThat(longName.operations()).isEmpty();
    }

    @Test
    void aRequestTheFenceCouldNotReadOrAnUpgradeHasNoSummary() {
        assertThat(READER.read(post("{\"query\":\"query { \"}"))).isEmpty();
        assertThat(READER.read(post("{\"id\":\"persisted-hash\"}"))).isEmpty();
        assertThat(READER.read(GraphqlExchange.of("GET", null, null, null, false, true))).isEmpty();
    }

    @Test
    void aSubscribeFrameIsSummarisedAndHousekeepingIsNot() {
        String subscribe = "{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":"
                + quote("subscription Updates { issueUpdated(id: \"secret\") { title } }") + "}}";
        assertThat(READER.readFrame("graphql-transport-ws", subscribe)).contains(new GraphqlSummary(
                List.of(op(0, OperationType.SUBSCRIPTION, "Updates", "issueUpdated")), false));
        assertThat(READER.readFrame("graphql-transport-ws", "{\"type\":\"ping\"}")).isEmpty();
    }

    @Test
    void theReplayRequestReadsBackAsTheSameSummary() {
        List<GraphqlSummary> summaries = List.of(
                new GraphqlSummary(List.of(op(0, OperationType.QUERY, null, "viewer", "__typename")), false),
                new GraphqlSummary(List.of(op(0, OperationType.QUERY, "A", "viewer"),
                        op(0, OperationType.MUTATION, "B", "createIssue"),
                        op(1, OperationType.SUBSCRIPTION, null, "issueUpdated")), false));
        for (GraphqlSummary s : summaries) {
            GraphqlSummary.ReplayRequest r = s.replayRequest("POST").orElseThrow();
            assertThat(read(GraphqlExchange.of("POST", r.contentType(), r.urlQuery(), r.body(), false, false)))
                    .isEqualTo(s);
        }
        GraphqlSummary.ReplayRequest get = summaries.get(0).replayRequest("GET").orElseThrow();
        assertThat(get.body()).isNull();
        assertThat(read(GraphqlExchange.of("GET", null, get.urlQuery(), null, false, false)))
                .isEqualTo(summaries.get(0));
        assertThat(summaries.get(1).replayRequest("GET")).as("a GET carries one document").isEmpty();
    }

    @Test
    void theReplayRequestGetsTheVerdictTheRecordedRequestGotFromAFenceWithoutArguments() {
        GraphqlFenceSet reads = set(fence(OperationType.QUERY, "Get*", List.of("repository", "viewer")));
        for (String text : List.of("query GetRepo { r: repository(owner: \"a\") { id } viewer { login } }",
                "query Other { viewer }", "query GetAll { viewer organization(login: \"x\") { id } }",
                "mutation GetBad { viewer }", "query GetSchema { __schema { types { name } } }")) {
            GraphqlExchange recorded = query(text);
            GraphqlSummary.ReplayRequest r = read(recorded).replayRequest("POST").orElseThrow();
            GraphqlExchange replayed = GraphqlExchange.of("POST", r.contentType(), r.urlQuery(), r.body(), false,
                    false);
            assertThat(reads.judge(replayed)).as(text).isEqualTo(reads.judge(recorded));
        }
    }

    @Test
    void aSummaryRefusesWhatNoRequestProduces() {
        assertThatThrownBy(() -> op(0, OperationType.QUERY, null, "a } mutation { deleteRepository"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> op(0, OperationType.QUERY, "x\"y", "viewer"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> op(0, OperationType.ANY, null, "viewer")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> op(0, OperationType.QUERY, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> op(0, OperationType.QUERY, null, "a", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GraphqlSummary(List.of(op(1, OperationType.QUERY, null, "a"),
                op(0, OperationType.QUERY, null, "b")), false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GraphqlSummary(List.of(), false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theJsonFormReadsBackAndIsWrittenByHand() {
        GraphqlSummary s = new GraphqlSummary(List.of(op(0, OperationType.QUERY, null, "viewer"),
                op(1, OperationType.MUTATION, "File", "createIssue", "addComment")), false);
        String json = "{\"operations\":[{\"element\":0,\"type\":\"query\",\"name\":null,\"fields\":[\"viewer\"]},"
                + "{\"element\":1,\"type\":\"mutation\",\"name\":\"File\",\"fields\":[\"createIssue\",\"addComment\"]}],"
                + "\"truncated\":false}";
        assertThat(s.toJson()).isEqualTo(json);
        assertThat(GraphqlSummary.fromJson(json)).isEqualTo(s);
        assertThat(GraphqlSummary.fromJson("{\"operations\":[],\"truncated\":true}").truncated()).isTrue();
    }

    @Test
    void jsonThatNoProxyWritesIsRefusedWithAMessage() {
        for (String bad : List.of("[]", "{\"operations\":[]}", "{\"operations\":[],\"truncated\":false}",
                "{\"operations\":[{\"element\":0,\"type\":\"*\",\"fields\":[\"a\"]}],\"truncated\":false}",
                "{\"operations\":[{\"element\":-1,\"type\":\"query\",\"fields\":[\"a\"]}],\"truncated\":false}",
                "{\"operations\":[{\"element\":0,\"type\":\"query\",\"fields\":[\"a b\"]}],\"truncated\":false}",
                "{\"operations\":[{\"element\":0,\"type\":\"query\",\"fields\":[{\"a\":1}]}],\"truncated\":false}",
                "{\"operations\":[{\"element\":0,\"type\":\"query\",\"name\":7,\"fields\":[\"a\"]}],\"truncated\":false}",
                "not json")) {
            assertThatThrownBy(() -> GraphqlSummary.fromJson(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("graphql summary");
        }
    }
}
