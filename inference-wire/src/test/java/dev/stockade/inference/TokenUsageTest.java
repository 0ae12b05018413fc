package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The usage record keeps its parts inside their wholes and refuses negative counts. */
class TokenUsageTest {

    @Test
    void partsNeverExceedTheirWholes() {
        TokenUsage usage = new TokenUsage(1, 5, 0, 10, 50, 9, OptionalLong.empty());
        assertThat(usage.cacheWrite1hTokens()).isEqualTo(10);
        assertThat(usage.reasoningTokens()).isEqualTo(5);
    }

    @Test
    void mediaPartsNeverExceedTheirBucketsAndAudioOutputLeavesRoomForReasoning() {
        TokenUsage usage = new TokenUsage(10, 8, 5, 0, 0, 3, OptionalLong.empty())
                .withMedia(new TokenUsage.Media(7, 9, 9, 7, 9));
        // audio first (the dearer part), images in what audio leaves; output audio beside the 3 reasoning tokens
        assertThat(usage.media()).isEqualTo(new TokenUsage.Media(7, 5, 5, 3, 0));
    }

    @Test
    void copiesKeepEveryOtherField() {
        TokenUsage usage = new TokenUsage(10, 8, 5, 2, 1, 3, OptionalLong.empty(), 4)
                .withMedia(TokenUsage.Media.audio(6, 5, 5)).withReportedCost(99);
        assertThat(usage).isEqualTo(new TokenUsage(10, 8, 5, 2, 1, 3, OptionalLong.of(99), 4,
                TokenUsage.Media.audio(6, 5, 5)));
        assertThat(TokenUsage.of(1, 1).media()).isEqualTo(TokenUsage.Media.NONE);
        assertThat(new TokenUsage(1, 1, 0, 0, 0, 0, OptionalLong.empty(), 0, null).media())
                .isEqualTo(TokenUsage.Media.NONE);
    }

    @Test
    void negativeCountsAreRefused() {
        assertThatThrownBy(() -> TokenUsage.Media.audio(0, -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TokenUsage.of(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void totalInputCountsTheCacheAndSaturates() {
        assertThat(new TokenUsage(100, 0, 20, 3, 0, 0, OptionalLong.empty()).totalInputTokens()).isEqualTo(123);
        assertThat(new TokenUsage(Long.MAX_VALUE, 0, 5, 0, 0, 0, OptionalLong.empty()).totalInputTokens())
                .isEqualTo(Long.MAX_VALUE);
    }
}
