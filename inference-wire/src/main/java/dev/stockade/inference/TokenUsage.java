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
 * @param media              the audio and image parts of the input, cache read and output buckets
 */
public record TokenUsage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                         long cacheWrite1hTokens, long reasoningTokens, OptionalLong reportedCostMicros,
                         long webSearches, Media media) {

    /** No tokens and no reported cost. */
    public static final TokenUsage NONE = new TokenUsage(0, 0, 0, 0, 0, 0, OptionalLong.empty());

    /**
     * The parts of the buckets that are audio or images, which voice and vision models price apart from text;
     * every part lies inside its bucket, so text is the remainder and nothing is counted twice.
     *
     * @param inputAudioTokens     the part of {@code inputTokens} (uncached) that is audio
     * @param cacheReadAudioTokens the part of {@code cacheReadTokens} that is audio
     * @param outputAudioTokens    the part of {@code outputTokens} that is audio
     * @param inputImageTokens     the part of {@code inputTokens} (uncached) that is images
     * @param cacheReadImageTokens the part of {@code cacheReadTokens} that is images
     */
    public record Media(long inputAudioTokens, long cacheReadAudioTokens, long outputAudioTokens,
                        long inputImageTokens, long cacheReadImageTokens) {

        /** Text only. */
        public static final Media NONE = new Media(0, 0, 0, 0, 0);

        public Media {
            if (inputAudioTokens < 0 || cacheReadAudioTokens < 0 || outputAudioTokens < 0 || inputImageTokens < 0
                    || cacheReadImageTokens < 0) {
                throw new IllegalArgumentException("token counts must not be negative");
            }
        }

        /** Audio only, no images. */
        public static Media audio(long input, long cacheRead, long output) {
            return new Media(input, cacheRead, output, 0, 0);
        }

        // Audio is kept first because it is the dearer part wherever the data prices both.
        private Media within(long input, long cacheRead, long output) {
            long audioIn = Math.min(inputAudioTokens, input);
            long audioRead = Math.min(cacheReadAudioTokens, cacheRead);
            return new Media(audioIn, audioRead, Math.min(outputAudioTokens, output),
                    Math.min(inputImageTokens, input - audioIn), Math.min(cacheReadImageTokens, cacheRead - audioRead));
        }
    }

    public TokenUsage {
        if (inputTokens < 0 || outputTokens < 0 || cacheReadTokens < 0 || cacheWriteTokens < 0
                || cacheWrite1hTokens < 0 || reasoningTokens < 0 || webSearches < 0) {
            throw new IllegalArgumentException("token counts must not be negative");
        }
        // INVARIANT: the one-hour writes are part of the writes, reasoning part of the output, and each media
        // part part of its bucket (audio output beside reasoning, never overlapping it).
        cacheWrite1hTokens = Math.min(cacheWrite1hTokens, cacheWriteTokens);
        reasoningTokens = Math.min(reasoningTokens, outputTokens);
        reportedCostMicros = reportedCostMicros == null ? OptionalLong.empty() : reportedCostMicros;
        media = (media == null ? Media.NONE : media).within(inputTokens, cacheReadTokens,
                outputTokens - reasoningTokens);
    }

    /** Text-only usage. */
    public TokenUsage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                      long cacheWrite1hTokens, long reasoningTokens, OptionalLong reportedCostMicros,
                      long webSearches) {
        this(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens, reasoningTokens,
                reportedCostMicros, webSearches, Media.NONE);
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
                reasoningTokens, OptionalLong.of(micros), webSearches, media);
    }

    /** A copy whose buckets have these audio and image parts (each cut to its bucket). */
    public TokenUsage withMedia(Media parts) {
        return new TokenUsage(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens,
                reasoningTokens, reportedCostMicros, webSearches, parts);
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
