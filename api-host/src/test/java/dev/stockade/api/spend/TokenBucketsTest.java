package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.inference.TokenUsage;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What the ledger keeps of a metered call's usage: every priced bucket, each part inside its bucket. */
class TokenBucketsTest {

    @Test
    void anAnthropicCallKeepsItsCacheBucketsReasoningAndSearchesInsideEveryInputToken() {
        // Anthropic reports input without the cache: 1,000 uncached, 2,000 read, 400 written (100 of them for 1h)
        TokenUsage u = new TokenUsage(1_000, 500, 2_000, 400, 100, 50, OptionalLong.empty(), 2);
        assertThat(TokenBuckets.of(u)).isEqualTo(new TokenBuckets(3_400, 500, 2_000, 400, 100, 50, 0, 0, 0, 0, 0, 2));
    }

    @Test
    void aVoiceResponseKeepsItsAudioAndImagePartsPerBucket() {
        // uncached input 1,000 (800 audio, 50 images), 300 cached (200 audio, 50 images), output 500 (400 audio)
        TokenUsage u = new TokenUsage(1_000, 500, 300, 0, 0, 0, OptionalLong.empty(), 0,
                new TokenUsage.Media(800, 200, 400, 50, 50));
        assertThat(TokenBuckets.of(u)).isEqualTo(new TokenBuckets(1_300, 500, 300, 0, 0, 0, 800, 200, 400, 50, 50, 0));
    }

    @Test
    void nothingUsedAndPlainCountsHaveNoParts() {
        assertThat(TokenBuckets.of(TokenUsage.NONE)).isEqualTo(TokenBuckets.NONE);
        assertThat(TokenBuckets.NONE.values()).containsOnly(0L).hasSize(TokenBuckets.COLUMNS.size());
        assertThat(TokenBuckets.of(1_000, 200)).isEqualTo(new TokenBuckets(1_000, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void eachCountIsWrittenToItsOwnColumn() {
        TokenBuckets t = new TokenBuckets(100, 90, 40, 30, 20, 10, 9, 8, 7, 6, 5, 4);
        assertThat(TokenBuckets.COLUMNS).containsExactly("input_tokens", "output_tokens", "cache_read_tokens",
                "cache_write_tokens", "cache_write_1h_tokens", "reasoning_tokens", "input_audio_tokens",
                "cache_read_audio_tokens", "output_audio_tokens", "input_image_tokens", "cache_read_image_tokens",
                "web_searches");
        assertThat(t.values()).containsExactly(100L, 90L, 40L, 30L, 20L, 10L, 9L, 8L, 7L, 6L, 5L, 4L);
    }

    @Test
    void aPartOutsideItsBucketOrANegativeCountIsRefused() {
        long[][] refused = {
            {100, 0, 80, 30, 0, 0, 0, 0, 0, 0, 0, 0},   // cache reads and writes above the input
            {100, 0, 0, 30, 31, 0, 0, 0, 0, 0, 0, 0},   // one-hour writes above the writes
            {100, 0, 50, 0, 0, 0, 40, 0, 0, 11, 0, 0},  // audio and images above the uncached input
            {100, 0, 50, 0, 0, 0, 0, 30, 0, 0, 21, 0},  // cached audio and images above the cache reads
            {100, 50, 0, 0, 0, 30, 0, 0, 21, 0, 0, 0},  // reasoning and audio above the output
            {100, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1},   // a negative count
        };
        for (long[] n : refused) {
            assertThatThrownBy(() -> new TokenBuckets(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], n[9],
                    n[10], n[11])).as(java.util.Arrays.toString(n)).isInstanceOf(IllegalArgumentException.class);
        }
        // each part exactly filling its bucket is allowed
        assertThat(new TokenBuckets(100, 50, 50, 50, 50, 30, 0, 30, 20, 0, 20, 0).inputTokens()).isEqualTo(100);
    }

    @Test
    void absurdCountsThatSaturateTheInputStillRecordWithPartsInsideIt() {
        TokenUsage u = new TokenUsage(Long.MAX_VALUE, 1, Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, OptionalLong.empty(),
                0, TokenUsage.Media.audio(Long.MAX_VALUE, Long.MAX_VALUE, 1));
        TokenBuckets t = TokenBuckets.of(u);
        assertThat(t.inputTokens()).isEqualTo(Long.MAX_VALUE);
        assertThat(t.cacheReadTokens()).isEqualTo(Long.MAX_VALUE);
        assertThat(t.cacheWriteTokens()).isZero();
        assertThat(t.inputAudioTokens()).isZero();
        assertThat(t.cacheReadAudioTokens()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theLedgersUsageRefusesNoTokensAndKeepsPlainCountsAsBuckets() {
        java.util.UUID id = java.util.UUID.randomUUID();
        assertThatThrownBy(() -> new UsageLedger.Usage(id, id, null, dev.stockade.policy.model.Provider.OPENAI, "m",
                null, null, true, null)).isInstanceOf(NullPointerException.class);
        assertThat(new UsageLedger.Usage(id, id, null, dev.stockade.policy.model.Provider.OPENAI, "m", 7, 3, null,
                true, null).tokens()).isEqualTo(TokenBuckets.of(7, 3));
    }
}
