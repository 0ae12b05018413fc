package dev.stockade.api.spend;

import dev.stockade.inference.TokenUsage;
import java.util.List;

/**
 * The priced buckets of one call as the ledger keeps them, so that a reader of spend sees what the call was charged
 * for: the proxy prices each bucket at its own rate ({@link TokenUsage}). {@code inputTokens} and
 * {@code outputTokens} count every token of their side; every other token count is a part of one of them.
 *
 * @param inputTokens          every input token, cached or not (what the ledger always kept)
 * @param outputTokens         every output token, reasoning and audio included
 * @param cacheReadTokens      the part of the input read from the prompt cache
 * @param cacheWriteTokens     the part of the input written to the prompt cache, all lifetimes
 * @param cacheWrite1hTokens   the part of {@code cacheWriteTokens} written for one hour (priced higher)
 * @param reasoningTokens      the part of the output spent on reasoning, when reported
 * @param inputAudioTokens     the part of the uncached input that is audio
 * @param cacheReadAudioTokens the part of {@code cacheReadTokens} that is audio
 * @param outputAudioTokens    the part of the output that is audio
 * @param inputImageTokens     the part of the uncached input that is images
 * @param cacheReadImageTokens the part of {@code cacheReadTokens} that is images
 * @param webSearches          server-side web searches, billed per request
 */
public record TokenBuckets(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                           long cacheWrite1hTokens, long reasoningTokens, long inputAudioTokens,
                           long cacheReadAudioTokens, long outputAudioTokens, long inputImageTokens,
                           long cacheReadImageTokens, long webSearches) {
    /** Nothing used: a call whose usage is unknown (charged its hold) or an unmetered direct call. */
    public static final TokenBuckets NONE = of(0, 0);

    /** The ledger's columns, in the order of {@link #values()}. */
    static final List<String> COLUMNS = List.of("input_tokens", "output_tokens", "cache_read_tokens",
            "cache_write_tokens", "cache_write_1h_tokens", "reasoning_tokens", "input_audio_tokens",
            "cache_read_audio_tokens", "output_audio_tokens", "input_image_tokens", "cache_read_image_tokens",
            "web_searches");

    public TokenBuckets {
        for (long n : new long[] {inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens,
                reasoningTokens, inputAudioTokens, cacheReadAudioTokens, outputAudioTokens, inputImageTokens,
                cacheReadImageTokens, webSearches}) {
            if (n < 0) {
                throw new IllegalArgumentException("token counts must not be negative");
            }
        }
        // INVARIANT: each part lies inside its bucket, so a reader can take the text remainder of each bucket
        // (written as subtractions of non-negative counts, which cannot overflow)
        long uncached = inputTokens - cacheReadTokens - cacheWriteTokens;
        if (cacheReadTokens > inputTokens || cacheWriteTokens > inputTokens - cacheReadTokens
                || cacheWrite1hTokens > cacheWriteTokens
                || inputAudioTokens > uncached || inputImageTokens > uncached - inputAudioTokens
                || cacheReadAudioTokens > cacheReadTokens
                || cacheReadImageTokens > cacheReadTokens - cacheReadAudioTokens
                || reasoningTokens > outputTokens || outputAudioTokens > outputTokens - reasoningTokens) {
            throw new IllegalArgumentException("a token part must lie inside its bucket (cache reads and writes inside"
                    + " the input, audio and images inside theirs, reasoning and audio inside the output)");
        }
    }

    /** Plain input and output tokens, no breakdown. */
    public static TokenBuckets of(long inputTokens, long outputTokens) {
        return new TokenBuckets(inputTokens, outputTokens, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * The buckets of a metered call. The input is every input token ({@link TokenUsage#totalInputTokens()}), as the
     * ledger kept it before it kept the parts; the parts are the usage's own, each already inside its bucket.
     */
    public static TokenBuckets of(TokenUsage u) {
        TokenUsage.Media m = u.media();
        long input = u.totalInputTokens();
        // totalInputTokens saturates at Long.MAX_VALUE; cut the cache parts to it so that absurd counts still record
        long cacheRead = Math.min(u.cacheReadTokens(), input);
        long cacheWrite = Math.min(u.cacheWriteTokens(), input - cacheRead);
        long uncached = input - cacheRead - cacheWrite;
        long audioIn = Math.min(m.inputAudioTokens(), uncached);
        long audioRead = Math.min(m.cacheReadAudioTokens(), cacheRead);
        return new TokenBuckets(input, u.outputTokens(), cacheRead, cacheWrite,
                Math.min(u.cacheWrite1hTokens(), cacheWrite), u.reasoningTokens(), audioIn, audioRead,
                m.outputAudioTokens(), Math.min(m.inputImageTokens(), uncached - audioIn),
                Math.min(m.cacheReadImageTokens(), cacheRead - audioRead), u.webSearches());
    }

    /** The counts in the order of {@link #COLUMNS}. */
    List<Object> values() {
        return List.of(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cacheWrite1hTokens,
                reasoningTokens, inputAudioTokens, cacheReadAudioTokens, outputAudioTokens, inputImageTokens,
                cacheReadImageTokens, webSearches);
    }
}
