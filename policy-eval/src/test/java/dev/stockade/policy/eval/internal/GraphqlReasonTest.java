package dev.stockade.policy.eval.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.graphql.FenceReason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A GraphQL fence's typed reason becomes the decision's reason with the same wire code, never by a string. */
class GraphqlReasonTest {

    @ParameterizedTest
    @EnumSource(FenceReason.class)
    void everyFenceReasonMapsToTheDecisionReasonOfTheSameCode(FenceReason reason) {
        ReasonCode code = CompiledRule.reasonOf(reason);
        assertThat(code.code()).isEqualTo(reason.code());
    }

    @org.junit.jupiter.api.Test
    void aRefusalWithoutAReasonReadsAsUnparseable() {
        assertThat(CompiledRule.reasonOf(null)).isEqualTo(ReasonCode.GRAPHQL_UNPARSEABLE);
    }
}
