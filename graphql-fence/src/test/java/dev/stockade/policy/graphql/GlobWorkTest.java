package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.arg;
import static dev.stockade.policy.graphql.Fences.fence;
import static dev.stockade.policy.graphql.Fences.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.graphql.internal.GlobWork;
import dev.stockade.policy.model.OperationType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The glob work of one request is memoised per (glob, text) and bounded: aliases of one large variable are
 * matched once, and work beyond the bound denies with graphql-limit instead of running on.
 */
class GlobWorkTest {
    /** A star-dense value glob near the length limit: the matcher's worst case. */
    private static final String DENSE = "a*".repeat(2000) + "b";

    private static String aliases(int count) {
        StringBuilder q = new StringBuilder("query($o: String) {");
        for (int i = 0; i < count; i++) {
            q.append(" r").append(i).append(": repository(owner: $o) { id }");
        }
        return q.append(" }").toString();
    }

    @Test
    void aTextIsMatchedOncePerGlobHoweverOftenItRepeats() {
        Glob glob = Glob.compile(GlobKind.VALUE, DENSE).glob();
        String text = "a".repeat(100_000);
        GlobWork work = new GlobWork(Long.MAX_VALUE);
        assertThat(work.matches(glob, text)).isFalse();
        long once = work.spent();
        assertThat(once).isEqualTo(glob.cost(text.length()));
        for (int i = 0; i < 1000; i++) {
            assertThat(work.matches(glob, new String(text))).isFalse();
        }
        assertThat(work.spent()).isEqualTo(once);
    }

    @Test
    void shortTextsAreChargedEveryTime() {
        Glob glob = Glob.compile(GlobKind.NAME, "repo*").glob();
        GlobWork work = new GlobWork(10);
        assertThat(work.matches(glob, "repository")).isTrue();
        assertThat(work.matches(glob, "repository")).isNull();
    }

    @Test
    void manyAliasesOfOneLargeVariableCostOneMatch() {
        GraphqlFenceSet set = GraphqlFenceSet.allOf(List.of(fence(OperationType.QUERY, null, List.of("repository"),
                arg("repository", "/owner", DENSE))), GraphqlLimits.defaults());
        String value = "a".repeat(200_000);
        FenceResult result = set.judge(post(aliases(1_000), null, "{\"o\": \"" + value + "\"}"));
        assertThat(result.allowed()).isFalse();
        assertThat(result.reasonCode()).isEqualTo("graphql-argument-denied");
    }

    @Test
    void workBeyondTheBoundDeniesWithTheLimitReason() {
        GraphqlLimits tight = new GraphqlLimits(1 << 20, 1_000_000, 15_000, 200_000, 500, 1_000_000);
        GraphqlFenceSet set = GraphqlFenceSet.allOf(List.of(fence(OperationType.QUERY, null, List.of("repository"),
                arg("repository", "/owner", DENSE))), tight);
        StringBuilder vars = new StringBuilder("{");
        StringBuilder q = new StringBuilder("query(");
        for (int i = 0; i < 20; i++) {
            q.append(i == 0 ? "" : ", ").append("$o").append(i).append(": String");
            vars.append(i == 0 ? "" : ",").append("\"o").append(i).append("\": \"").append("a".repeat(2_000 + i)).append("b")
                    .append('"');
        }
        q.append(") {");
        for (int i = 0; i < 20; i++) {
            q.append(" r").append(i).append(": repository(owner: $o").append(i).append(") { id }");
        }
        FenceResult result = set.judge(post(q.append(" }").toString(), null, vars.append('}').toString()));
        assertThat(result.allowed()).isFalse();
        assertThat(result.reasonCode()).isEqualTo("graphql-limit");
        assertThat(result.detail()).contains("maxGlobWork");
    }

    @Test
    void theDefaultBoundCoversOneFullSizeValueAgainstTheLongestGlob() {
        Glob longest = Glob.compile(GlobKind.VALUE, "*a".repeat(2048)).glob();
        assertThat(longest.cost(1 << 20)).isLessThanOrEqualTo(GraphqlLimits.DEFAULT_MAX_GLOB_WORK);
    }
}
