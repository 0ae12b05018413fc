package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.arg;
import static dev.stockade.policy.graphql.Fences.fence;
import static dev.stockade.policy.graphql.Fences.post;
import static dev.stockade.policy.graphql.Fences.query;
import static dev.stockade.policy.graphql.Fences.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.graphql.internal.AnalysisCache;
import dev.stockade.policy.graphql.internal.ParserSetup;
import dev.stockade.policy.model.OperationType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class GraphqlFenceSetTest {

    static final GraphqlFenceSet READ_REPOS = set(fence(OperationType.QUERY, null, List.of("repository", "viewer")));

    static void allowed(FenceResult result) {
        assertThat(result.allowed()).as(String.valueOf(result)).isTrue();
        assertThat(result.reasonCode()).isNull();
    }

    static void denied(FenceResult result, String code) {
        assertThat(result.allowed()).as(String.valueOf(result)).isFalse();
        assertThat(result.reasonCode()).isEqualTo(code);
        assertThat(result.detail()).isNotBlank().doesNotContain("\n");
        // Lower case outside the backticked user input.
        String outsideBackticks = result.detail().replaceAll("`[^`]*`", "");
        assertThat(outsideBackticks).isEqualTo(outsideBackticks.toLowerCase(java.util.Locale.ROOT));
    }

    @Nested
    class OperationTypes {
        @Test
        void aQueryFenceAdmitsAQuery() {
            allowed(READ_REPOS.judge(query("query { viewer { login } }")));
        }

        @Test
        void shorthandIsAQuery() {
            allowed(READ_REPOS.judge(query("{ viewer { login } }")));
        }

        @Test
        void aQueryFenceDeniesAMutation() {
            FenceResult result = READ_REPOS.judge(query("mutation { viewer { login } }"));
            denied(result, "graphql-operation-denied");
            assertThat(result.detail()).isEqualTo("operation type `mutation` is not admitted");
        }

        @Test
        void starAdmitsEveryType() {
            GraphqlFenceSet any = set(fence(OperationType.ANY, null, null));
            allowed(any.judge(query("mutation { deleteRepository(input: {}) { clientMutationId } }")));
            allowed(any.judge(query("subscription { x }")));
        }
    }

    @Nested
    class OperationNames {
        final GraphqlFenceSet getOnly = set(fence(OperationType.QUERY, "Get*", null));

        @Test
        void matchingNamePasses() {
            allowed(getOnly.judge(query("query GetRepo { repository { id } }")));
        }

        @Test
        void otherNameIsDenied() {
            denied(getOnly.judge(query("query ListRepo { repository { id } }")), "graphql-name-denied");
        }

        @Test
        void unnamedOperationIsDeniedWhenAGlobIsSet() {
            denied(getOnly.judge(query("{ repository { id } }")), "graphql-name-denied");
        }

        @Test
        void unnamedOperationPassesWhenNoGlobIsSet() {
            allowed(set(fence(OperationType.QUERY, null, null)).judge(query("{ repository { id } }")));
        }

        @Test
        void theDeclaredNameIsJudgedNotTheRequestedOne() {
            // operationName selects; the fence sees the declared name of the selected operation.
            allowed(getOnly.judge(post("query GetA { a } ", "GetA", null)));
        }

        @Test
        void everyOperationOfTheDocumentIsJudged() {
            FenceResult result = getOnly.judge(post("query GetA { a } query DropA { a }", "GetA", null));
            denied(result, "graphql-name-denied");
            assertThat(result.detail()).contains("`DropA`");
        }

        @Test
        void unknownOperationNameIsDenied() {
            denied(getOnly.judge(post("query GetA { a }", "GetB", null)), "graphql-operation-unknown");
        }

        @Test
        void userInputInADetailStaysOneLine() {
            FenceResult result = getOnly.judge(post("query GetA { a }", "Get\nB`x", null));
            denied(result, "graphql-operation-unknown");
            assertThat(result.detail()).isEqualTo("no operation of the document is named `Get\\u000aB\\u0060x`");
        }

        @Test
        void severalOperationsWithoutANameAreDenied() {
            denied(getOnly.judge(query("query GetA { a } query GetB { b }")), "graphql-operation-unknown");
        }
    }

    @Nested
    class RootFields {
        @Test
        void listedFieldPasses() {
            allowed(READ_REPOS.judge(query("{ repository(owner: \"a\", name: \"b\") { id } viewer { login } }")));
        }

        @Test
        void unlistedFieldDenies() {
            FenceResult result = READ_REPOS.judge(query("{ repository { id } organization { id } }"));
            denied(result, "graphql-field-denied");
            assertThat(result.detail()).isEqualTo("root field `organization` is not admitted");
        }

        @Test
        void anAliasDoesNotHideTheField() {
            denied(READ_REPOS.judge(query("{ repository: organization(login: \"x\") { id } }")),
                    "graphql-field-denied");
            allowed(READ_REPOS.judge(query("{ org: repository(owner: \"x\") { id } }")));
        }

        @Test
        void inlineFragmentsAreExpanded() {
            denied(READ_REPOS.judge(query("{ viewer { id } ... on Query { organization { id } } }")),
                    "graphql-field-denied");
            allowed(READ_REPOS.judge(query("{ ... on Query { viewer { id } } }")));
        }

        @Test
        void namedFragmentsAreExpanded() {
            denied(READ_REPOS.judge(query("query { ...F } fragment F on Query { organization { id } }")),
                    "graphql-field-denied");
            allowed(READ_REPOS.judge(query("query { ...F } fragment F on Query { viewer { id } }")));
        }

        @Test
        void nestedFragmentsAreExpanded() {
            denied(READ_REPOS.judge(query(
                    "query { ...A } fragment A on Query { ... on Query { ...B } } fragment B on Query { secrets }")),
                    "graphql-field-denied");
        }

        @Test
        void fieldGlobsMatch() {
            GraphqlFenceSet globbed = set(fence(OperationType.QUERY, null, List.of("repo*")));
            allowed(globbed.judge(query("{ repository { id } repositoryOwner { id } }")));
            denied(globbed.judge(query("{ viewer { id } }")), "graphql-field-denied");
        }

        @Test
        void unknownFragmentDenies() {
            denied(READ_REPOS.judge(query("query { ...Missing }")), "graphql-unparseable");
            denied(READ_REPOS.judge(query("query { viewer { ...Missing } }")), "graphql-unparseable");
        }

        @Test
        void fragmentCycleDenies() {
            denied(READ_REPOS.judge(query(
                    "query { viewer { ...A } } fragment A on User { ...B } fragment B on User { ...A }")),
                    "graphql-unparseable");
            denied(READ_REPOS.judge(query("query { ...A } fragment A on Query { viewer { ...A } }")),
                    "graphql-unparseable");
        }

        @Test
        void fragmentFanOutStaysLinear() {
            // 2^30 occurrences if expanded naively.
            StringBuilder doc = new StringBuilder("query { ...F0 }");
            for (int i = 0; i < 30; i++) {
                doc.append(" fragment F").append(i).append(" on Query { ...F").append(i + 1)
                        .append(" ...F").append(i + 1).append(" }");
            }
            doc.append(" fragment F30 on Query { viewer { id } }");
            allowed(READ_REPOS.judge(query(doc.toString())));
        }

        @Test
        void introspectionIsDeniedWhenFieldsAreNamed() {
            FenceResult result = READ_REPOS.judge(query("{ __schema { types { name } } }"));
            denied(result, "graphql-field-denied");
            assertThat(result.detail()).isEqualTo("introspection field `__schema` is not admitted");
            denied(set(fence(OperationType.QUERY, null, List.of("*"))).judge(query("{ __type(name: \"X\") { name } }")),
                    "graphql-field-denied");
        }

        @Test
        void introspectionPassesWhenFieldsAreOmitted() {
            allowed(set(fence(OperationType.QUERY, null, null)).judge(query("{ __schema { types { name } } }")));
        }

        @Test
        void typenameAtTheRootPasses() {
            allowed(READ_REPOS.judge(query("{ __typename viewer { id } }")));
        }

        @Test
        void directivesDoNotHideAField() {
            denied(READ_REPOS.judge(query("{ viewer { id } organization @skip(if: true) { id } }")),
                    "graphql-field-denied");
        }

        @Test
        void nestedSelectionsAreNotBounded() {
            // Spec rule 7: only the entry points are fenced.
            allowed(READ_REPOS.judge(query("{ viewer { organization { repositories { nodes { id } } } } }")));
        }
    }

    @Nested
    class Arguments {
        final GraphqlFenceSet acmeOnly = set(fence(OperationType.QUERY, null, List.of("repository", "viewer"),
                arg("repository", "/owner", "acme")));

        @Test
        void literalArgumentMatches() {
            allowed(acmeOnly.judge(query("{ repository(owner: \"acme\", name: \"app\") { id } }")));
            denied(acmeOnly.judge(query("{ repository(owner: \"evil\", name: \"app\") { id } }")),
                    "graphql-argument-denied");
        }

        @Test
        void comparisonIsCaseSensitive() {
            denied(acmeOnly.judge(query("{ repository(owner: \"ACME\") { id } }")), "graphql-argument-denied");
        }

        @Test
        void variablesAreResolved() {
            String q = "query Q($o: String!) { repository(owner: $o) { id } }";
            allowed(acmeOnly.judge(post(q, null, "{\"o\":\"acme\"}")));
            denied(acmeOnly.judge(post(q, null, "{\"o\":\"evil\"}")), "graphql-argument-denied");
        }

        @Test
        void anUnsuppliedVariableDenies() {
            FenceResult result = acmeOnly.judge(post("query Q($o: String) { repository(owner: $o) { id } }", null, null));
            denied(result, "graphql-argument-denied");
            assertThat(result.detail()).isEqualTo("argument `/owner` of field `repository` reaches no value");
        }

        @Test
        void anUndeclaredVariableDeniesEvenIfSupplied() {
            denied(acmeOnly.judge(post("query Q { repository(owner: $o) { id } }", null, "{\"o\":\"acme\"}")),
                    "graphql-argument-denied");
        }

        @Test
        void aDefaultValueIsUsedWhenTheVariableIsUnsupplied() {
            String q = "query Q($o: String = \"acme\") { repository(owner: $o) { id } }";
            allowed(acmeOnly.judge(post(q, null, null)));
            denied(acmeOnly.judge(post(q, null, "{\"o\":\"evil\"}")), "graphql-argument-denied");
            denied(acmeOnly.judge(post(q, null, "{\"o\":null}")), "graphql-argument-denied");
        }

        @Test
        void missingArgumentDenies() {
            denied(acmeOnly.judge(query("{ repository(name: \"app\") { id } }")), "graphql-argument-denied");
        }

        @Test
        void theFieldAbsentMeansTheConditionHolds() {
            allowed(acmeOnly.judge(query("{ viewer { login } }")));
        }

        @Test
        void everyOccurrenceMustHold() {
            denied(acmeOnly.judge(query("{ a: repository(owner: \"acme\") { id } b: repository(owner: \"evil\") { id } }")),
                    "graphql-argument-denied");
            denied(acmeOnly.judge(query("{ repository(owner: \"acme\") { id } ...F } "
                    + "fragment F on Query { repository(owner: \"evil\") { id } }")), "graphql-argument-denied");
        }

        @Test
        void anAliasNamedLikeTheFieldIsNotTheField() {
            // `repository` here is an alias of viewer; the condition is about the real repository field.
            allowed(acmeOnly.judge(query("{ repository: viewer { login } }")));
        }

        @Test
        void pointersReachIntoInputObjectsAndLists() {
            GraphqlFenceSet issues = set(fence(OperationType.MUTATION, null, List.of("createIssue", "closeIssues"),
                    arg("createIssue", "/input/title", "bug: *"), arg("closeIssues", "/ids/0", "I_*")));
            allowed(issues.judge(query("mutation { createIssue(input: {title: \"bug: x\"}) { issue { id } } }")));
            denied(issues.judge(query("mutation { createIssue(input: {title: \"feat\"}) { issue { id } } }")),
                    "graphql-argument-denied");
            allowed(issues.judge(query("mutation { closeIssues(ids: [\"I_1\", \"X\"]) { ok } }")));
            denied(issues.judge(query("mutation { closeIssues(ids: []) { ok } }")), "graphql-argument-denied");
        }

        @Test
        void variablesInsideInputObjectsAndListsAreResolved() {
            GraphqlFenceSet issues = set(fence(OperationType.MUTATION, null, List.of("createIssue"),
                    arg("createIssue", "/input/labels/1", "ok")));
            String q = "mutation M($t: String, $l: String) { createIssue(input: {title: $t, labels: [\"a\", $l]}) { id } }";
            allowed(issues.judge(post(q, null, "{\"l\":\"ok\"}")));
            denied(issues.judge(post(q, null, "{\"l\":\"no\"}")), "graphql-argument-denied");
            String whole = "mutation M($in: CreateIssueInput!) { createIssue(input: $in) { id } }";
            allowed(issues.judge(post(whole, null, "{\"in\":{\"labels\":[\"a\",\"ok\"]}}")));
            denied(issues.judge(post(whole, null, "{\"in\":{\"labels\":[\"a\"]}}")), "graphql-argument-denied");
        }

        @Test
        void nullListAndObjectDeny() {
            GraphqlFenceSet any = set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/a", "*")));
            allowed(any.judge(query("{ f(a: \"x\") }")));
            assertThat(any.judge(query("{ f(a: null) }")).detail()).endsWith("is null");
            assertThat(any.judge(query("{ f(a: [\"x\"]) }")).detail()).endsWith("is not a scalar");
            denied(any.judge(query("{ f(a: {b: \"x\"}) }")), "graphql-argument-denied");
        }

        @Test
        void numbersCompareAsWritten() {
            GraphqlFenceSet small = set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/n", "1e3")));
            allowed(small.judge(query("{ f(n: 1e3) }")));
            denied(small.judge(query("{ f(n: 1000) }")), "graphql-argument-denied");
            allowed(small.judge(post("query Q($n: Float) { f(n: $n) }", null, "{\"n\": 1e3}")));
            GraphqlFenceSet decimals = set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/n", "1.50")));
            allowed(decimals.judge(query("{ f(n: 1.50) }")));
            allowed(decimals.judge(post("query Q($n: Float) { f(n: $n) }", null, "{\"n\": 1.50}")));
            denied(decimals.judge(query("{ f(n: 1.5) }")), "graphql-argument-denied");
            GraphqlFenceSet negativeZero = set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/n", "-0")));
            allowed(negativeZero.judge(query("{ f(n: -0) }")));
        }

        @Test
        void enumsAndBooleansCompareByName() {
            GraphqlFenceSet open = set(fence(OperationType.QUERY, null, List.of("issues"),
                    arg("issues", "/states/0", "OPEN"), arg("issues", "/archived", "false")));
            allowed(open.judge(query("{ issues(states: [OPEN], archived: false) { totalCount } }")));
            denied(open.judge(query("{ issues(states: [CLOSED], archived: false) { totalCount } }")),
                    "graphql-argument-denied");
            denied(open.judge(query("{ issues(states: [OPEN], archived: true) { totalCount } }")),
                    "graphql-argument-denied");
        }

        @Test
        void aDuplicatedArgumentDenies() {
            denied(acmeOnly.judge(query("{ repository(owner: \"acme\", owner: \"evil\") { id } }")),
                    "graphql-argument-denied");
        }

        @Test
        void escapedPointerTokensReachJsonKeys() {
            GraphqlFenceSet escaped = set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/v/a~1b/c~0d", "x")));
            String q = "query Q($v: JSON) { f(v: $v) }";
            allowed(escaped.judge(post(q, null, "{\"v\": {\"a/b\": {\"c~d\": \"x\"}}}")));
            denied(escaped.judge(post(q, null, "{\"v\": {\"a/b\": {\"c~d\": \"y\"}}}")), "graphql-argument-denied");
        }

        @Test
        void detailNeverEchoesTheArgumentValue() {
            FenceResult result = acmeOnly.judge(query("{ repository(owner: \"ghp_secretvalue\") { id } }"));
            assertThat(result.detail()).doesNotContain("ghp_secretvalue");
        }
    }

    @Nested
    class Conjunction {
        @Test
        void everyFenceMustPass() {
            GraphqlFenceSet both = set(fence(OperationType.ANY, null, List.of("repository", "viewer")),
                    fence(OperationType.QUERY, "Get*", List.of("repository")));
            allowed(both.judge(query("query GetR { repository { id } }")));
            denied(both.judge(query("query GetR { viewer { id } }")), "graphql-field-denied");
            denied(both.judge(query("mutation GetR { repository { id } }")), "graphql-operation-denied");
        }

        @Test
        void anEmptySetAdmitsNothing() {
            GraphqlFenceSet none = GraphqlFenceSet.allOf(List.of(), GraphqlLimits.defaults());
            assertThat(none.judge(query("{ a }")).allowed()).isFalse();
            assertThat(none.grantsWebSocket()).isFalse();
        }
    }

    @Nested
    class InvalidFences {
        // Validation refuses these when a policy is written (rule 8); should one reach a fence it admits nothing.
        @Test
        void anInvalidNameGlobMatchesNothing() {
            denied(set(fence(OperationType.QUERY, "Get-*", null)).judge(query("query GetA { a }")), "graphql-name-denied");
        }

        @Test
        void anInvalidFieldGlobMatchesNothing() {
            denied(set(fence(OperationType.QUERY, null, List.of("a.b"))).judge(query("{ a }")), "graphql-field-denied");
            allowed(set(fence(OperationType.QUERY, null, List.of("a.b", "a"))).judge(query("{ a }")));
        }

        @Test
        void anInvalidValueGlobOrPointerMatchesNothing() {
            denied(set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/a", "x\\n")))
                    .judge(query("{ f(a: \"x\\n\") }")), "graphql-argument-denied");
            denied(set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "a", "x"))).judge(query("{ f(a: \"x\") }")),
                    "graphql-argument-denied");
            denied(set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/a~2", "x"))).judge(query("{ f(a: \"x\") }")),
                    "graphql-argument-denied");
            allowed(set(fence(OperationType.QUERY, null, List.of("f"), arg("f", "/a", "x"))).judge(query("{ f(a: \"x\") }")));
        }

        @Test
        void aFenceWithoutAnOperationTypeAdmitsNothing() {
            denied(set(fence(null, null, null)).judge(query("{ a }")), "graphql-operation-denied");
        }
    }

    @Nested
    class Memoisation {
        @Test
        void oneExchangeIsParsedOnceForSetsWithTheSameLimits() {
            GraphqlExchange exchange = query("{ viewer { id } }");
            ParserSetup setup = new ParserSetup(GraphqlLimits.defaults(), new AnalysisCache(1 << 20));
            assertThat(exchange.prepared(setup)).isSameAs(exchange.prepared(new ParserSetup(GraphqlLimits.defaults(),
                    new AnalysisCache(1 << 20))));
            allowed(READ_REPOS.judge(exchange));
            denied(set(fence(OperationType.MUTATION, null, null)).judge(exchange), "graphql-operation-denied");
        }

        @Test
        void eachCacheIsItsOwnAndBounded() {
            GraphqlDocumentCache mine = GraphqlDocumentCache.bounded(1 << 20);
            GraphqlDocumentCache theirs = GraphqlDocumentCache.bounded(1 << 20);
            GraphqlFenceSet a = GraphqlFenceSet.allOf(List.of(fence(OperationType.QUERY, null, null)),
                    GraphqlLimits.defaults(), mine);
            allowed(a.judge(query("{ viewer { id } }")));
            assertThat(mine.size()).isEqualTo(1);
            assertThat(theirs.size()).isZero();
            // About 1 MiB of estimated trees: 32 bytes a character plus 1 KiB each, so a few hundred small ones.
            for (int i = 0; i < 5_000; i++) {
                a.judge(query("{ viewer" + i + " { id } }"));
            }
            assertThat(mine.size()).isBetween(100L, 1_000L);
            GraphqlDocumentCache none = GraphqlDocumentCache.none();
            GraphqlFenceSet b = GraphqlFenceSet.allOf(List.of(fence(OperationType.QUERY, null, null)),
                    GraphqlLimits.defaults(), none);
            allowed(b.judge(query("{ viewer { id } }")));
            assertThat(none.size()).isZero();
        }

        @Test
        void otherLimitsReparse() {
            GraphqlExchange exchange = query("{ viewer { id } }");
            allowed(READ_REPOS.judge(exchange));
            GraphqlFenceSet tiny = GraphqlFenceSet.allOf(List.of(fence(OperationType.QUERY, null, null)),
                    new GraphqlLimits(1 << 20, 1000, 3, 1000, 100));
            denied(tiny.judge(exchange), "graphql-limit");
        }
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
