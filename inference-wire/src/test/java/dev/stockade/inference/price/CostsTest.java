package dev.stockade.inference.price;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.inference.RequestShape;
import dev.stockade.inference.TokenUsage;
import dev.stockade.inference.WireFormat;
import dev.stockade.policy.model.Provider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Costs in micro-USD from published list prices (USD per million tokens, so micro-USD per token): Claude
 * Sonnet 4.5 $3 input, $15 output, $0.30 cache read, $3.75 5-minute and $6 one-hour cache write, doubled input
 * and 1.5x output past 200k input tokens; GPT-4o $2.50, $1.25 cached, $10; GPT-4.1 $2, $8 with a 1M window;
 * text-embedding-3-small $0.02; Anthropic web search $10 per thousand searches.
 */
class CostsTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-27T08:00:00Z"), ZoneOffset.UTC);
    private final Costs costs = new Costs(PriceTable.bundled(), NOW, Costs.Options.DEFAULT);

    private static TokenUsage usage(long in, long out, long read, long write, long write1h, long reasoning) {
        return new TokenUsage(in, out, read, write, write1h, reasoning, OptionalLong.empty());
    }

    private static RequestShape shape(WireFormat format, String model, OptionalLong output, long input, boolean unbounded) {
        return new RequestShape(format, Optional.ofNullable(model), false, output, input, unbounded);
    }

    @Test
    void eachBucketIsPricedSeparately() {
        TokenUsage usage = usage(1000, 500, 2000, 1000, 400, 0);
        // 1000*3 + 500*15 + 2000*0.30 + 600*3.75 + 400*6
        assertThat(costs.cost(Provider.AZURE, WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5", usage))
                .hasValue(15_750);
    }

    @Test
    void webSearchesArePricedPerThousand() {
        TokenUsage usage = new TokenUsage(1000, 0, 0, 0, 0, 0, OptionalLong.empty(), 3);
        // 1000*3 + 3 * $10/1000 = 3000 + 30000
        assertThat(costs.cost(Provider.AZURE, WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5", usage))
                .hasValue(33_000);
    }

    @Test
    void pastTwoHundredThousandInputTokensTheTierPriceAppliesToTheWholeCall() {
        TokenUsage usage = usage(150_000, 1000, 60_000, 0, 0, 0);
        // 150000*6 + 60000*0.60 + 1000*22.50
        assertThat(costs.cost(Provider.AZURE, WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5", usage))
                .hasValue(958_500);
    }

    @Test
    void openAiCachedTokensArePricedAsCacheReadsAndReasoningAsOutput() {
        TokenUsage usage = usage(176, 40, 1024, 0, 0, 8);
        // 176*2.50 + 1024*1.25 + 40*10
        assertThat(costs.cost(Provider.OPENAI, WireFormat.OPENAI_CHAT, "gpt-4o-2024-08-06", usage))
                .hasValue(2_120);
    }

    @Test
    void theTotalIsRoundedHalfUpOnce() {
        assertThat(costs.cost(Provider.OPENAI, WireFormat.OPENAI_EMBEDDINGS, "text-embedding-3-small",
                TokenUsage.of(25, 0))).hasValue(1); // 0.5
        assertThat(costs.cost(Provider.OPENAI, WireFormat.OPENAI_EMBEDDINGS, "text-embedding-3-small",
                TokenUsage.of(24, 0))).hasValue(0); // 0.48
    }

    @Test
    void openRouterAndLiteLlmReportedCostsWin() {
        TokenUsage reported = TokenUsage.of(1000, 100).withReportedCost(125);
        assertThat(costs.cost(Provider.OPENROUTER, WireFormat.OPENAI_CHAT, "anthropic/claude-sonnet-4.5",
                reported)).hasValue(125);
        // 1000*3 + 100*15 from the table when OpenRouter reports nothing
        assertThat(costs.cost(Provider.OPENROUTER, WireFormat.OPENAI_CHAT, "anthropic/claude-sonnet-4.5",
                TokenUsage.of(1000, 100))).hasValue(4_500);
        assertThat(costs.cost(Provider.LITELLM, WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5", reported))
                .hasValue(125);
        assertThat(costs.cost(Provider.LITELLM, WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5",
                TokenUsage.of(1000, 100))).as("the spec counts it zero; the ledger stores no cost").isEmpty();
    }

    @Test
    void anUnpricedModelIsEmptyNeverGuessed() {
        assertThat(costs.cost(Provider.OPENAI, WireFormat.OPENAI_CHAT, "no-such-model-xyz",
                TokenUsage.of(10, 10))).isEmpty();
        assertThat(costs.cost(Provider.OPENAI, WireFormat.OPENAI_CHAT, "", TokenUsage.of(10, 10))).isEmpty();
        assertThat(costs.maxCost(Provider.OPENAI,
                shape(WireFormat.OPENAI_CHAT, "no-such-model-xyz", OptionalLong.of(10), 100, false))).isEmpty();
        assertThat(costs.maxCost(Provider.OPENAI,
                shape(WireFormat.OPENAI_CHAT, null, OptionalLong.of(10), 100, false))).isEmpty();
    }

    @Test
    void maxCostTakesTheHighestInputSidePriceForEveryInputToken() {
        // 10000 * max(3, 0.30, 3.75, 6) + 1000 * 15
        assertThat(costs.maxCost(Provider.AZURE,
                shape(WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5", OptionalLong.of(1000), 10_000, false)))
                .hasValue(75_000);
    }

    @Test
    void maxCostBoundsInputByTheContextWindow() {
        // 200000 (the window) * 6 + 1000 * 15: at exactly 200000 input tokens the tier has not begun
        RequestShape huge = shape(WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5", OptionalLong.of(1000), 5_000_000, false);
        RequestShape unbounded = shape(WireFormat.ANTHROPIC_MESSAGES, "claude-sonnet-4-5", OptionalLong.of(1000), 50, true);
        assertThat(costs.maxCost(Provider.AZURE, huge)).hasValue(1_215_000);
        assertThat(costs.maxCost(Provider.AZURE, unbounded)).hasValue(1_215_000);
    }

    @Test
    void withoutAnOutputBoundTheContextWindowBoundsTheOutput() {
        // 5000 * max(2, 0.50) + 1000000 * 8
        assertThat(costs.maxCost(Provider.OPENAI,
                shape(WireFormat.OPENAI_RESPONSES, "gpt-4.1", OptionalLong.empty(), 5000, false))).hasValue(8_010_000);
    }

    private static final String SMALL_TABLE = """
            {"providers": [
              {"id": "aws", "models": [{"id": "only-aws", "match": {"equals": "shared"}, "prices": {"input_mtok": 1, "output_mtok": 1}}]},
              {"id": "anthropic", "models": [
                {"id": "windowless", "match": {"equals": "windowless"}, "prices": {"input_mtok": 1, "output_mtok": 2}},
                {"id": "shared", "match": {"equals": "shared"}, "prices": {"input_mtok": 9, "output_mtok": 9}},
                {"id": "dated", "match": {"equals": "dated"}, "prices": [
                  {"prices": {"input_mtok": 4, "output_mtok": 4}},
                  {"constraint": {"start_date": "2026-12-01"}, "prices": {"input_mtok": 1, "output_mtok": 1}}]}]}
            ]}
            """;

    private static Costs small(Clock clock) throws IOException {
        return new Costs(PriceTable.read(SMALL_TABLE.getBytes(StandardCharsets.UTF_8)), clock, new Costs.Options(500, 70));
    }

    @Test
    void aModelWithoutAWindowUsesTheConfiguredBounds() throws IOException {
        Costs costs = small(NOW);
        // output: 100 input * 1 + 70 (fallback output) * 2; unbounded input: 500 (default window) * 1 + 70 * 2
        assertThat(costs.maxCost(Provider.LITELLM,
                shape(WireFormat.ANTHROPIC_MESSAGES, "windowless", OptionalLong.empty(), 100, false))).hasValue(240);
        assertThat(costs.maxCost(Provider.LITELLM,
                shape(WireFormat.ANTHROPIC_MESSAGES, "windowless", OptionalLong.empty(), 100, true))).hasValue(640);
    }

    @Test
    void pricesFollowTheClock() throws IOException {
        TokenUsage usage = TokenUsage.of(1000, 0);
        assertThat(small(NOW).cost(Provider.BEDROCK_MANTLE, WireFormat.ANTHROPIC_MESSAGES, "dated", usage))
                .hasValue(4000);
        Clock december = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
        assertThat(small(december).cost(Provider.BEDROCK_MANTLE, WireFormat.ANTHROPIC_MESSAGES, "dated", usage))
                .hasValue(1000);
    }

    @Test
    void mantlePricesAsBedrockFirstThenByItsWireFormat() throws IOException {
        Costs costs = small(NOW);
        assertThat(costs.price(Provider.BEDROCK_MANTLE, WireFormat.ANTHROPIC_MESSAGES, "shared")
                .orElseThrow().provider()).isEqualTo("aws");
        assertThat(costs.price(Provider.BEDROCK_MANTLE, WireFormat.ANTHROPIC_MESSAGES, "windowless")
                .orElseThrow().provider()).isEqualTo("anthropic");
        assertThat(costs.price(Provider.BEDROCK, WireFormat.BEDROCK_INVOKE, "windowless")).isEmpty();
    }

    @Test
    void liteLlmModelPrefixesPickTheProvider() {
        assertThat(costs.price(Provider.LITELLM, WireFormat.OPENAI_CHAT, "anthropic/claude-sonnet-4-5")
                .orElseThrow().provider()).isEqualTo("anthropic");
        assertThat(costs.price(Provider.LITELLM, WireFormat.OPENAI_CHAT,
                "bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0").orElseThrow().provider()).isEqualTo("aws");
        assertThat(costs.price(Provider.LITELLM, WireFormat.OPENAI_CHAT, "gpt-4o").orElseThrow().provider())
                .isEqualTo("openai");
    }

    @Test
    void absurdCountsSaturateInsteadOfOverflowing() {
        assertThat(costs.maxCost(Provider.OPENAI,
                shape(WireFormat.OPENAI_CHAT, "gpt-4o", OptionalLong.of(Long.MAX_VALUE), 10, false)))
                .hasValue(Long.MAX_VALUE);
    }
}
