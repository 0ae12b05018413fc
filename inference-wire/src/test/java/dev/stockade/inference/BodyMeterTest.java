package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Whole answers as the providers document them, normalised so input never includes cache tokens. */
class BodyMeterTest {

    private final BodyMeter meter = new BodyMeter(WireLimits.DEFAULT);

    private BodyReading read(WireFormat format, String body, Map<String, String> headers) {
        return meter.read(format, body.getBytes(StandardCharsets.UTF_8), ResponseHeaders.of(headers));
    }

    @Test
    void anthropicKeepsInputAndSplitsOneHourCacheWrites() {
        BodyReading reading = read(WireFormat.ANTHROPIC_MESSAGES, "{\"id\":\"msg_013Zva2CMHLNnXjNJJKqJ2EF\","
                + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}],\"stop_reason\":\"end_turn\",\"usage\":"
                + "{\"input_tokens\":2095,\"output_tokens\":503,\"cache_creation_input_tokens\":2051,"
                + "\"cache_read_input_tokens\":0,\"cache_creation\":{\"ephemeral_5m_input_tokens\":51,"
                + "\"ephemeral_1h_input_tokens\":2000},\"service_tier\":\"standard\"}}", Map.of());
        assertThat(reading.usage()).contains(new TokenUsage(2095, 503, 0, 2051, 2000, 0, OptionalLong.empty()));
        assertThat(reading.model()).contains("claude-sonnet-4-5-20250929");
        assertThat(reading.problem()).isEmpty();
    }

    @Test
    void chatSubtractsCachedTokensFromPromptTokens() {
        BodyReading reading = read(WireFormat.OPENAI_CHAT, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\","
                + "\"model\":\"gpt-4o-2024-08-06\",\"choices\":[],\"usage\":{\"prompt_tokens\":2006,"
                + "\"completion_tokens\":300,\"total_tokens\":2306,\"prompt_tokens_details\":{\"cached_tokens\":1920,"
                + "\"audio_tokens\":0},\"completion_tokens_details\":{\"reasoning_tokens\":64}}}", Map.of());
        assertThat(reading.usage()).contains(new TokenUsage(86, 300, 1920, 0, 0, 64, OptionalLong.empty()));
    }

    @Test
    void cachedTokensAbovePromptTokensLeaveAnEmptyInputBucket() {
        BodyReading reading = read(WireFormat.OPENAI_CHAT, "{\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":1,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":50}}}", Map.of());
        assertThat(reading.usage()).contains(new TokenUsage(0, 1, 50, 0, 0, 0, OptionalLong.empty()));
    }

    @Test
    void webSearchesAreCountedFromAnthropicUsageAndResponsesOutput() {
        BodyReading anthropic = read(WireFormat.ANTHROPIC_MESSAGES, "{\"usage\":{\"input_tokens\":100,"
                + "\"output_tokens\":20,\"server_tool_use\":{\"web_search_requests\":2}}}", Map.of());
        assertThat(anthropic.usage().orElseThrow().webSearches()).isEqualTo(2);
        BodyReading responses = read(WireFormat.OPENAI_RESPONSES, "{\"output\":[{\"type\":\"web_search_call\","
                + "\"id\":\"ws_1\",\"status\":\"completed\"},{\"type\":\"web_search_call\",\"id\":\"ws_2\"},"
                + "{\"type\":\"message\",\"content\":[]}],\"usage\":{\"input_tokens\":9,\"output_tokens\":3}}", Map.of());
        assertThat(responses.usage().orElseThrow().webSearches()).isEqualTo(2);
    }

    @Test
    void embeddingsHaveInputOnly() {
        BodyReading reading = read(WireFormat.OPENAI_EMBEDDINGS, "{\"object\":\"list\",\"data\":[{\"object\":"
                + "\"embedding\",\"index\":0,\"embedding\":\"AAAA\"}],\"model\":\"text-embedding-3-small\","
                + "\"usage\":{\"prompt_tokens\":8,\"total_tokens\":8}}", Map.of());
        assertThat(reading.usage()).contains(TokenUsage.of(8, 0));
    }

    @Test
    void responsesAndConverse() {
        assertThat(read(WireFormat.OPENAI_RESPONSES, "{\"id\":\"resp_1\",\"object\":\"response\",\"status\":"
                + "\"completed\",\"model\":\"gpt-4.1-2025-04-14\",\"usage\":{\"input_tokens\":328,"
                + "\"input_tokens_details\":{\"cached_tokens\":300},\"output_tokens\":52,\"output_tokens_details\":"
                + "{\"reasoning_tokens\":10},\"total_tokens\":380}}", Map.of()).usage())
                .contains(new TokenUsage(28, 52, 300, 0, 0, 10, OptionalLong.empty()));
        assertThat(read(WireFormat.BEDROCK_CONVERSE, "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":"
                + "[{\"text\":\"Hi\"}]}},\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":30,\"outputTokens\":"
                + "628,\"totalTokens\":758,\"cacheReadInputTokens\":100,\"cacheWriteInputTokens\":0},\"metrics\":"
                + "{\"latencyMs\":1275}}", Map.of()).usage())
                .contains(new TokenUsage(30, 628, 100, 0, 0, 0, OptionalLong.empty()));
    }

    @Test
    void bedrockInvokeHeadersWinOverTheBodyAndCoverNonAnthropicBodies() {
        Map<String, String> headers = Map.of("x-amzn-bedrock-input-token-count", "40",
                "X-Amzn-Bedrock-Output-Token-Count", "12", "X-Amzn-Bedrock-Cache-Read-Input-Token-Count", "7",
                "X-Amzn-Bedrock-Cache-Write-Input-Token-Count", "3", "X-Amzn-Bedrock-Invocation-Latency", "900");
        BodyReading anthropic = read(WireFormat.BEDROCK_INVOKE,
                "{\"type\":\"message\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}", headers);
        assertThat(anthropic.usage()).contains(new TokenUsage(40, 12, 7, 3, 0, 0, OptionalLong.empty()));
        BodyReading llama = read(WireFormat.BEDROCK_INVOKE, "{\"generation\":\"Hi\",\"stop_reason\":\"stop\"}",
                headers);
        assertThat(llama.usage().orElseThrow().inputTokens()).isEqualTo(40);
    }

    @Test
    void badHeaderCountsAreIgnored() {
        BodyReading reading = read(WireFormat.BEDROCK_INVOKE, "{\"usage\":{\"input_tokens\":5,\"output_tokens\":6}}",
                Map.of("X-Amzn-Bedrock-Input-Token-Count", "-3", "X-Amzn-Bedrock-Output-Token-Count", "1e3"));
        assertThat(reading.usage()).contains(TokenUsage.of(5, 6));
    }

    @Test
    void backendsReportedCostsBecomeMicroUsdRoundedHalfUp() {
        BodyReading openRouter = read(WireFormat.OPENAI_CHAT, "{\"model\":\"anthropic/claude-sonnet-4.5\",\"usage\":"
                + "{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15,\"cost\":0.0001245}}", Map.of());
        assertThat(openRouter.usage().orElseThrow().reportedCostMicros()).hasValue(125);
        BodyReading liteLlm = read(WireFormat.ANTHROPIC_MESSAGES, "{\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}",
                Map.of("x-litellm-response-cost", "1.5e-05"));
        assertThat(liteLlm.usage().orElseThrow().reportedCostMicros()).hasValue(15);
        assertThat(BodyMeter.reportedCostUsd(ResponseHeaders.of(Map.of("x-litellm-response-cost", "nope")))).isEmpty();
        assertThat(BodyMeter.reportedCostUsd(ResponseHeaders.of(Map.of("x-litellm-response-cost", "0.25"))))
                .contains(new BigDecimal("0.25"));
        assertThat(BodyMeter.reportedCostMicros(ResponseHeaders.of(Map.of("x-litellm-response-cost", "0.0000125"))))
                .hasValue(13);
        assertThat(BodyMeter.reportedCostMicros(ResponseHeaders.of(Map.of("x-litellm-response-cost", "-1")))).isEmpty();
        BodyReading absurd = read(WireFormat.OPENAI_CHAT, "{\"usage\":{\"prompt_tokens\":1,\"cost\":1e999999}}", Map.of());
        assertThat(absurd.usage().orElseThrow().reportedCostMicros()).isEmpty();
    }

    @Test
    void unreadableBodiesReportTheirProblem() {
        assertThat(read(WireFormat.OPENAI_CHAT, "{\"usage\":", Map.of()))
                .isEqualTo(new BodyReading(Optional.empty(), Optional.empty(), Optional.of(WireProblem.MALFORMED_JSON)));
        BodyMeter small = new BodyMeter(new WireLimits(16, 16));
        assertThat(small.read(WireFormat.OPENAI_CHAT, new byte[17], ResponseHeaders.NONE).problem())
                .contains(WireProblem.BODY_TOO_LARGE);
        assertThat(read(WireFormat.OPENAI_CHAT, "{\"id\":\"x\"}", Map.of()).usage()).isEmpty();
    }
}
