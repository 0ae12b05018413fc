package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.arg;
import static dev.stockade.policy.graphql.Fences.fence;
import static dev.stockade.policy.graphql.Fences.post;
import static dev.stockade.policy.graphql.Fences.query;
import static dev.stockade.policy.graphql.Fences.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.OperationType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A deny carries a typed reason, and its detail quotes the request's names by the core's one clipping rule
 * (issue 25, item 14): a 10,000-character name shows its first 80 characters and its length.
 */
class DenyDetailTest {
    private static final GraphqlFenceSet GET_ONLY = set(fence(OperationType.QUERY, "Get*", List.of("viewer")));

    @Test
    void aLongOperationNameIsClippedWithItsLength() {
        String name = "Drop" + "x".repeat(10_000);
        FenceResult result = GET_ONLY.judge(post("query " + name + " { viewer }", name, null));
        assertThat(result.reason()).isEqualTo(FenceReason.NAME_DENIED);
        assertThat(result.detail()).isEqualTo("operation name `Drop" + "x".repeat(76) + "…` (10004 characters) is not admitted");
    }

    @Test
    void aLongRootFieldIsClippedWithItsLength() {
        String field = "f".repeat(5_000);
        FenceResult result = GET_ONLY.judge(query("query GetA { " + field + " }"));
        assertThat(result.reason()).isEqualTo(FenceReason.FIELD_DENIED);
        assertThat(result.detail()).isEqualTo("root field `" + "f".repeat(80) + "…` (5000 characters) is not admitted");
    }

    @Test
    void anArgumentDenyNamesTheConditionsPointerAndFieldButNeverTheValue() {
        GraphqlFenceSet owners = set(fence(OperationType.QUERY, null, null, arg("repository", "/owner", "acme*")));
        FenceResult result = owners.judge(query("query { repository(owner: \"evil-secret\") { id } }"));
        assertThat(result.reason()).isEqualTo(FenceReason.ARGUMENT_DENIED);
        assertThat(result.detail()).isEqualTo("argument `/owner` of field `repository` does not match the fence");
        assertThat(result.detail()).doesNotContain("evil");
    }

    @Test
    void anArgumentDenyQuotesThePolicysPointerLikeAnyInput() {
        String pointer = "/own`er" + "/x".repeat(60);
        GraphqlFenceSet odd = set(fence(OperationType.QUERY, null, null, arg("repository", pointer, "*")));
        FenceResult result = odd.judge(query("query { repository(owner: \"acme\") { id } }"));
        assertThat(result.reason()).isEqualTo(FenceReason.ARGUMENT_DENIED);
        assertThat(result.detail()).isEqualTo("argument `/own\\u0060er" + "/x".repeat(36) + "/…` (127 characters)"
                + " of field `repository` reaches no value");
    }

    @Test
    void theWireCodeIsTheReasonsCode() {
        FenceResult result = GET_ONLY.judge(query("mutation GetA { viewer }"));
        assertThat(result.reason()).isEqualTo(FenceReason.OPERATION_DENIED);
        assertThat(result.reasonCode()).isEqualTo("graphql-operation-denied");
        assertThat(FenceResult.allow().reason()).isNull();
        assertThat(FenceResult.allow().reasonCode()).isNull();
    }

    @Test
    void everyReasonHasADistinctGraphqlCode() {
        assertThat(Arrays.stream(FenceReason.values()).map(FenceReason::code))
                .allSatisfy(code -> assertThat(code).matches("graphql-[a-z]+(-[a-z]+)*"))
                .doesNotHaveDuplicates();
    }
}
