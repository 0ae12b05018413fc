package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** How {@code stockade spend usage} shows the buckets a total was priced by. */
class SpendBreakdownTest {

    @Test
    void everyBucketIsShownUnderTheSideItIsPartOf() throws Exception {
        JsonNode usage = ApiClient.JSON.readTree("{\"costUsd\":\"0.024690\",\"calls\":2,\"inputTokens\":10000,"
                + "\"outputTokens\":1800,\"cacheReadTokens\":4000,\"cacheWriteTokens\":800,\"cacheWrite1hTokens\":200,"
                + "\"reasoningTokens\":120,\"inputAudioTokens\":1400,\"cacheReadAudioTokens\":600,"
                + "\"outputAudioTokens\":500,\"inputImageTokens\":160,\"cacheReadImageTokens\":80,\"webSearches\":4,"
                + "\"unpricedCalls\":0,\"unmeteredCalls\":0}");
        assertThat(SpendCommand.breakdown(usage)).containsExactly(
                "  input tokens 10000: cache read 4000, cache write 800 (200 for one hour), audio 1400, cached audio"
                        + " 600, images 160, cached images 80",
                "  output tokens 1800: reasoning 120, audio 500",
                "  web searches 4");
    }

    @Test
    void aPlatformThatSendsNoBucketsShowsDashesNotZeros() throws Exception {
        JsonNode older = ApiClient.JSON.readTree("{\"costUsd\":\"1.000000\",\"calls\":1,\"inputTokens\":10,"
                + "\"outputTokens\":5}");
        assertThat(SpendCommand.breakdown(older).get(1)).isEqualTo("  output tokens 5: reasoning -, audio -");
    }
}
