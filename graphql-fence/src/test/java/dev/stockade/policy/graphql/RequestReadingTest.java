package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.arg;
import static dev.stockade.policy.graphql.Fences.fence;
import static dev.stockade.policy.graphql.Fences.post;
import static dev.stockade.policy.graphql.Fences.query;
import static dev.stockade.policy.graphql.Fences.set;
import static dev.stockade.policy.graphql.GraphqlFenceSetTest.allowed;
import static dev.stockade.policy.graphql.GraphqlFenceSetTest.denied;
import static dev.stockade.policy.graphql.GraphqlFenceSetTest.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.OperationType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RequestReadingTest {

    static final GraphqlFenceSet VIEWER = set(fence(OperationType.QUERY, null, List.of("viewer", "repository"),
            arg("repository", "/owner", "acme")));

    static GraphqlExchange get(String urlQuery) {
        return GraphqlExchange.of("GET", null, urlQuery, null, false, false);
    }

    static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    @Nested
    class Get {
        @Test
        void parametersAreDecodedAndJudged() {
            allowed(VIEWER.judge(get("query=" + enc("{ viewer { login } }"))));
            denied(VIEWER.judge(get("query=" + enc("{ organization { id } }"))), "graphql-field-denied");
        }

        @Test
        void variablesAndOperationNameParameters() {
            String q = "query A($o: String) { repository(owner: $o) { id } } query B { organization { id } }";
            allowed(set(fence(OperationType.QUERY, null, null, arg("repository", "/owner", "acme")))
                    .judge(get("query=" + enc(q) + "&operationName=A&variables=" + enc("{\"o\":\"acme\"}"))));
            denied(VIEWER.judge(get("query=" + enc("query A($o: String) { repository(owner: $o) { id } }")
                    + "&variables=" + enc("{\"o\":\"evil\"}"))), "graphql-argument-denied");
        }

        @Test
        void aRepeatedParameterDenies() {
            denied(VIEWER.judge(get("query=" + enc("{ viewer { id } }") + "&query=" + enc("{ organization { id } }"))),
                    "graphql-unparseable");
        }

        @Test
        void aBodyOnAGetDenies() {
            denied(VIEWER.judge(GraphqlExchange.of("GET", "application/json", "query=" + enc("{ viewer { id } }"),
                    utf8("{\"query\":\"{ organization { id } }\"}"), false, false)), "graphql-unparseable");
        }

        @Test
        void badPercentEncodingDenies() {
            denied(VIEWER.judge(get("query=%zz")), "graphql-unparseable");
        }

        @Test
        void persistedQueryWithoutTextDenies() {
            denied(VIEWER.judge(get("extensions=" + enc("{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"ab\"}}"))),
                    "graphql-persisted-query");
        }
    }

    @Nested
    class Post {
        @Test
        void applicationGraphqlBody() {
            allowed(VIEWER.judge(GraphqlExchange.of("POST", "application/graphql; charset=utf-8", null,
                    utf8("{ viewer { id } }"), false, false)));
            denied(VIEWER.judge(GraphqlExchange.of("POST", "application/graphql", null,
                    utf8("mutation { viewer { id } }"), false, false)), "graphql-operation-denied");
        }

        @Test
        void anUnknownContentTypeIsReadAsJson() {
            denied(VIEWER.judge(GraphqlExchange.of("POST", "text/plain", null,
                    utf8("{\"query\":\"{ organization { id } }\"}"), false, false)), "graphql-field-denied");
            allowed(VIEWER.judge(GraphqlExchange.of("POST", null, null,
                    utf8("{\"query\":\"{ viewer { id } }\"}"), false, false)));
        }

        @Test
        void variablesSentAsAJsonString() {
            denied(VIEWER.judge(post("query Q($o: String) { repository(owner: $o) { id } }", null,
                    Fences.quote("{\"o\":\"evil\"}"))), "graphql-argument-denied");
        }

        @Test
        void invalidJsonDenies() {
            denied(VIEWER.judge(post("{\"query\": ")), "graphql-unparseable");
            denied(VIEWER.judge(post("")), "graphql-unparseable");
            denied(VIEWER.judge(post("{\"query\": 3}")), "graphql-unparseable");
            denied(VIEWER.judge(post("{}")), "graphql-unparseable");
            denied(VIEWER.judge(post("{\"query\":\"{ viewer { id } }\"} trailing")), "graphql-unparseable");
        }

        @Test
        void duplicateJsonKeysDeny() {
            denied(VIEWER.judge(post("{\"query\":\"{ viewer { id } }\",\"query\":\"{ organization { id } }\"}")),
                    "graphql-unparseable");
        }

        @Test
        void invalidGraphqlDenies() {
            denied(VIEWER.judge(query("{ viewer { id }")), "graphql-unparseable");
            denied(VIEWER.judge(query("type Query { viewer: User }")), "graphql-unparseable");
        }

        @Test
        void urlParametersBesideABodyDeny() {
            denied(VIEWER.judge(GraphqlExchange.of("POST", "application/json", "query=" + enc("{ organization { id } }"),
                    utf8("{\"query\":\"{ viewer { id } }\"}"), false, false)), "graphql-unparseable");
            allowed(VIEWER.judge(GraphqlExchange.of("POST", "application/json", "utm=1",
                    utf8("{\"query\":\"{ viewer { id } }\"}"), false, false)));
        }
    }

    @Nested
    class Batches {
        @Test
        void everyElementMustPass() {
            allowed(VIEWER.judge(post("[{\"query\":\"{ viewer { id } }\"},{\"query\":\"{ repository(owner: \\\"acme\\\") { id } }\"}]")));
            FenceResult result = VIEWER.judge(post("[{\"query\":\"{ viewer { id } }\"},{\"query\":\"mutation { viewer { id } }\"}]"));
            denied(result, "graphql-operation-denied");
            assertThat(result.detail()).startsWith("batch element 2: ");
        }

        @Test
        void anEmptyOrMalformedBatchDenies() {
            denied(VIEWER.judge(post("[]")), "graphql-unparseable");
            denied(VIEWER.judge(post("[{\"query\":\"{ viewer { id } }\"}, 3]")), "graphql-unparseable");
        }
    }

    @Nested
    class PersistedQueries {
        @Test
        void hashWithoutTextDenies() {
            denied(VIEWER.judge(post("{\"extensions\":{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"ab\"}}}")),
                    "graphql-persisted-query");
        }

        @Test
        void hashBesideTheTextIsJudgedOnTheText() {
            allowed(VIEWER.judge(post("{\"query\":\"{ viewer { id } }\",\"extensions\":{\"persistedQuery\":{\"version\":1}}}")));
        }

        @Test
        void aDocumentIdDeniesEvenBesideText() {
            denied(VIEWER.judge(post("{\"documentId\":\"abc\"}")), "graphql-persisted-query");
            denied(VIEWER.judge(post("{\"query\":\"{ viewer { id } }\",\"doc_id\":\"abc\"}")), "graphql-persisted-query");
        }
    }

    @Nested
    class Limits {
        @Test
        void aTruncatedBodyDenies() {
            denied(VIEWER.judge(GraphqlExchange.of("POST", "application/json", null,
                    utf8("{\"query\":\"{ viewer { id } }\"}"), true, false)), "graphql-limit");
        }

        @Test
        void aBodyOverTheLimitDenies() {
            GraphqlFenceSet small = GraphqlFenceSet.allOf(List.of(fence(OperationType.QUERY, null, null)),
                    new GraphqlLimits(10, 1000, 1000, 1000, 100));
            denied(small.judge(query("{ viewer { id } }")), "graphql-limit");
        }

        @Test
        void parserLimitsDeny() {
            GraphqlFenceSet tight = GraphqlFenceSet.allOf(List.of(fence(OperationType.QUERY, null, null)),
                    new GraphqlLimits(1 << 20, 40, 20, 10, 20));
            allowed(tight.judge(query("{ viewer { id } }")));
            denied(tight.judge(query("{ viewer { id login name email bio company location url } }")), "graphql-limit");
            denied(tight.judge(query("{ " + "a { ".repeat(8) + "b" + " }".repeat(8) + " }")), "graphql-limit");
            denied(tight.judge(query("{ viewer " + " ".repeat(50) + "}")), "graphql-limit");
            denied(tight.judge(query("{ a,b,c,d,e,f,g,h,i,j,k,l }")), "graphql-limit");
        }

        @Test
        void deepJsonDenies() {
            String deep = "[".repeat(2000) + "]".repeat(2000);
            denied(VIEWER.judge(post(deep)), "graphql-unparseable");
        }

        @Test
        void defaultLimitsStopADeepDocument() {
            denied(VIEWER.judge(query("{ " + "a { ".repeat(5000) + "b" + " }".repeat(5000) + " }")), "graphql-limit");
        }
    }
}
