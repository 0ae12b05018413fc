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
    void negativeCountsAreRefused() {
        assertThatThrownBy(() -> TokenUsage.of(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void totalInputCountsTheCacheAndSaturates() {
        assertThat(new TokenUsage(100, 0, 20, 3, 0, 0, OptionalLong.empty()).totalInputTokens()).isEqualTo(123);
        assertThat(new TokenUsage(Long.MAX_VALUE, 0, 5, 0, 0, 0, OptionalLong.empty()).totalInputTokens())
                .isEqualTo(Long.MAX_VALUE);
    }
}
