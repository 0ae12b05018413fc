package dev.stockade.inference;

import java.util.OptionalLong;

/**
 * The tokens one call used, normalised across wire formats so each bucket can be priced on its own:
 * {@code inputTokens} never includes cache reads or writes (Anthropic and Bedrock report it that way; OpenAI's
 * {@code prompt_tokens}/{@code input_tokens} include cached tokens, which are subtracted).
 *
 * @param inputTokens        uncached input tokens
 * @param outputTokens       output tokens, reasoning included
 * @param cacheReadTokens    input tokens read from the prompt cache
 * @param cacheWriteTokens   input tokens written to the prompt cache, all lifetimes
 * @param cacheWrite1hTokens the part of {@code cacheWriteTokens} written with a one-hour lifetime (priced higher)
 * @param reasoningTokens    the part of {@code outputTokens} spent on reasoning, when reported
 * @param reportedCostMicros the cost the backend itself reported (OpenRouter {@code usage.cost}, LiteLLM's
 *                           {@code x-litellm-response-cost}), in micro-USD rounded half-up
 * @param webSearches        server-side web searches the provider ran and bills per request (Anthropic
 *                           {@code server_tool_use.web_search_requests}, Responses {@code web_search_call} items)
 */
public record TokenUsage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                         long cacheWrite1hTokens, long reasoningTokens, OptionalLong reportedCostMicros,
                         long webSearches) {

    /** No tokens and no reported cost. */
    public static final TokenUsage NONE = new TokenUsage(0, 0, 0, 0, 0, 0, OptionalLong.empty());

    public TokenUsage {
        if (inputTokens < 0 || outputTokens < 0 || cacheReadTokens < 0 || cacheWriteTokens < 0
                || cacheWrite1hTokens < 0 || reasoningTokens < 0 || webSearches < 0) {
            throw new IllegalArgumentException("token counts must not be negative");
        }
        // INVARIANT: the one-hour writes are part of the writes, reasoning part of the output.
        cacheWrite1hTokens = Math.min(cacheWrite1hTokens, cacheWriteTokens);
        reasoningTokens = Math.min(reasoningTokens, outputTokens);
        reportedCostMicros = reportedCostMicros == null ? OptionalLong.empty() : reportedCostMicros;
    }

    /** Usage without web searches. */
    public TokenUsage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                      long cacheWrite1hTokens, long reasoningTokens, OptionalLong reportedCostMicros) {
        this(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens, reasoningTokens,
                reportedCostMicros, 0);
    }

    /** Plain input and output tokens, nothing cached. */
    public static TokenUsage of(long inputTokens, long outputTokens) {
        return new TokenUsage(inputTokens, outputTokens, 0, 0, 0, 0, OptionalLong.empty());
    }

    /** Every input token, cached or not: what price tiers by context length are decided on. */
    public long totalInputTokens() {
        return saturatedSum(saturatedSum(inputTokens, cacheReadTokens), cacheWriteTokens);
    }

    /** A copy with the backend's own cost. */
    public TokenUsage withReportedCost(long micros) {
        return new TokenUsage(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens,
                reasoningTokens, OptionalLong.of(micros), webSearches);
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
