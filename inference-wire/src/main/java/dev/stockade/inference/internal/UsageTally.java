package dev.stockade.inference.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.inference.TokenUsage;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The usage of one call as its reports arrive, in each wire format's own field names. A field present in a
 * report replaces the value held (Anthropic's {@code message_delta} counts are cumulative, so adding would count
 * twice); a field absent keeps it. Not thread-safe: one per call.
 */
public final class UsageTally {

    private static final BigDecimal MICROS_PER_USD = BigDecimal.valueOf(1_000_000);

    private long input;
    private long output;
    private long cacheRead;
    private long cacheWrite;
    private long cacheWrite1h;
    private long reasoning;
    private long webSearches;
    private TokenUsage.Media media = TokenUsage.Media.NONE;
    private OptionalLong reportedCost = OptionalLong.empty();
    private boolean seen;

    /** What was reported so far, or empty when no report arrived. */
    public Optional<TokenUsage> usage() {
        return seen ? Optional.of(new TokenUsage(input, output, cacheRead, cacheWrite, cacheWrite1h, reasoning,
                reportedCost, webSearches, media)) : Optional.empty();
    }

    /** Anthropic Messages {@code usage} (also Bedrock InvokeModel bodies): input excludes the cache already. */
    public void anthropic(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return;
        }
        seen = true;
        input = Json.count(usage.get("input_tokens")).orElse(input);
        output = Json.count(usage.get("output_tokens")).orElse(output);
        cacheRead = Json.count(usage.get("cache_read_input_tokens")).orElse(cacheRead);
        cacheWrite = Json.count(usage.get("cache_creation_input_tokens")).orElse(cacheWrite);
        cacheWrite1h = Json.count(usage, "cache_creation", "ephemeral_1h_input_tokens").orElse(cacheWrite1h);
        webSearches = Json.count(usage, "server_tool_use", "web_search_requests").orElse(webSearches);
        cost(usage);
    }

    /** OpenAI Chat Completions or embeddings {@code usage}: {@code prompt_tokens} includes cached tokens. */
    public void openAiChat(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return;
        }
        seen = true;
        cacheRead = Json.count(usage, "prompt_tokens_details", "cached_tokens").orElse(0);
        cacheWrite = Json.count(usage, "prompt_tokens_details", "cache_write_tokens").orElse(0);
        input = uncached(Json.count(usage.get("prompt_tokens")).orElse(0));
        output = Json.count(usage.get("completion_tokens")).orElse(0);
        reasoning = Json.count(usage, "completion_tokens_details", "reasoning_tokens").orElse(0);
        cost(usage);
    }

    /** OpenAI Responses {@code usage}: {@code input_tokens} includes cached tokens. */
    public void openAiResponses(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return;
        }
        seen = true;
        cacheRead = Json.count(usage, "input_tokens_details", "cached_tokens").orElse(0);
        cacheWrite = Json.count(usage, "input_tokens_details", "cache_write_tokens").orElse(0);
        input = uncached(Json.count(usage.get("input_tokens")).orElse(0));
        output = Json.count(usage.get("output_tokens")).orElse(0);
        reasoning = Json.count(usage, "output_tokens_details", "reasoning_tokens").orElse(0);
        cost(usage);
    }

    /** The {@code web_search_call} items of a Responses {@code output}: each is one billed search. */
    public void openAiResponsesOutput(JsonNode output) {
        if (output == null || !output.isArray()) {
            return;
        }
        long searches = 0;
        for (JsonNode item : output) {
            searches += item.path("type").asText("").equals("web_search_call") ? 1 : 0;
        }
        webSearches = searches;
    }

    /**
     * OpenAI Realtime {@code response.usage}: {@code input_tokens} includes cached tokens, and each modality's
     * count includes its cached part. Fail closed: a total below its details is raised to them, and tokens the
     * details leave unattributed count as audio, the dearest modality of every realtime price row.
     */
    public void openAiRealtime(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return;
        }
        seen = true;
        JsonNode in = usage.get("input_token_details");
        JsonNode cachedIn = in == null ? null : in.get("cached_tokens_details");
        long cachedAudio = Json.count(cachedIn, "audio_tokens").orElse(0);
        long cachedImage = Json.count(cachedIn, "image_tokens").orElse(0);
        long cachedSum = sum(Json.count(cachedIn, "text_tokens").orElse(0), cachedAudio, cachedImage);
        cacheRead = Math.max(Json.count(in, "cached_tokens").orElse(0), cachedSum);
        long audio = Json.count(in, "audio_tokens").orElse(0);
        long image = Json.count(in, "image_tokens").orElse(0);
        long detailed = sum(Json.count(in, "text_tokens").orElse(0), audio, image);
        long total = Math.max(Math.max(Json.count(usage.get("input_tokens")).orElse(0), detailed), cacheRead);
        input = total - cacheRead;
        // Unattributed tokens may exceed their bucket here; TokenUsage cuts each part to its bucket.
        long inputAudio = sum(Math.max(0, audio - cachedAudio), total - detailed);
        cachedAudio = sum(cachedAudio, cacheRead - cachedSum);
        JsonNode out = usage.get("output_token_details");
        long outAudio = Json.count(out, "audio_tokens").orElse(0);
        long outDetailed = sum(Json.count(out, "text_tokens").orElse(0), outAudio);
        output = Math.max(Json.count(usage.get("output_tokens")).orElse(0), outDetailed);
        outAudio = sum(outAudio, output - outDetailed);
        media = new TokenUsage.Media(inputAudio, cachedAudio, outAudio, Math.max(0, image - cachedImage), cachedImage);
    }

    /** Bedrock Converse {@code usage} (whole answer or the stream's {@code metadata} event). */
    public void converse(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return;
        }
        seen = true;
        input = Json.count(usage.get("inputTokens")).orElse(input);
        output = Json.count(usage.get("outputTokens")).orElse(output);
        cacheRead = Json.count(usage.get("cacheReadInputTokens")).orElse(cacheRead);
        cacheWrite = Json.count(usage.get("cacheWriteInputTokens")).orElse(cacheWrite);
    }

    /** Bedrock's own counts ({@code amazon-bedrock-invocationMetrics}, or the InvokeModel headers): authoritative. */
    public void bedrockCounts(OptionalLong in, OptionalLong out, OptionalLong read, OptionalLong write) {
        if (in.isEmpty() && out.isEmpty()) {
            return;
        }
        seen = true;
        input = in.orElse(input);
        output = out.orElse(output);
        cacheRead = read.orElse(cacheRead);
        cacheWrite = write.orElse(cacheWrite);
    }

    /** A cost in USD the backend reported (LiteLLM's header, OpenRouter's {@code usage.cost}). */
    public void reportedCostUsd(BigDecimal usd) {
        OptionalLong micros = micros(usd);
        reportedCost = micros.isPresent() ? micros : reportedCost;
    }

    /**
     * USD as micro-USD rounded half-up; empty for a negative amount, whole dollars past 10^12 or digits past
     * 10^-30 (not a cost, and a huge exponent would make the arithmetic expensive).
     */
    public static OptionalLong micros(BigDecimal usd) {
        if (usd.signum() < 0 || usd.precision() - usd.scale() > 12 || usd.scale() > 30) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(usd.multiply(MICROS_PER_USD).setScale(0, RoundingMode.HALF_UP).longValueExact());
    }

    private void cost(JsonNode usage) {
        JsonNode cost = usage.get("cost");
        if (cost != null && cost.isNumber()) {
            reportedCostUsd(cost.decimalValue());
        }
    }

    private static long sum(long... counts) {
        long total = 0;
        for (long count : counts) {
            total += count;
            if (total < 0) {
                return Long.MAX_VALUE; // only absurd reports overflow; saturating keeps the charge maximal
            }
        }
        return total;
    }

    // Cached counts above the total are malformed reports: the input bucket bottoms out at zero.
    private long uncached(long total) {
        return Math.max(0, total - cacheRead - cacheWrite);
    }
}
