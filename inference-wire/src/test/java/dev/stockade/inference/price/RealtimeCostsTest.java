package dev.stockade.inference.price;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.inference.RealtimeEvents;
import dev.stockade.inference.RealtimeUsage;
import dev.stockade.inference.RequestShape;
import dev.stockade.inference.TokenUsage;
import dev.stockade.inference.TokenUsage.Media;
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
 * Realtime voice usage priced from OpenAI's published prices per million tokens (micro-USD per token):
 * gpt-realtime text in $4, audio in $32, image in $5, cached text and audio $0.40, cached image $0.50, text out
 * $16, audio out $64 (32,000-token window); gpt-realtime-mini text in $0.60, audio in $10, cached text $0.06,
 * cached audio $0.30, text out $2.40, audio out $20; Amazon Nova Sonic text in $0.06, audio in $3.40, text out
 * $0.24, audio out $13.60 (no cache price at all).
 */
class RealtimeCostsTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-27T08:00:00Z"), ZoneOffset.UTC);
    private final Costs costs = new Costs(PriceTable.bundled(), NOW, Costs.Options.DEFAULT);

    private static TokenUsage usage(long in, long out, long read, Media media) {
        return new TokenUsage(in, out, read, 0, 0, 0, OptionalLong.empty(), 0, media);
    }

    private OptionalLong realtime(String model, TokenUsage usage) {
        return costs.cost(Provider.OPENAI, WireFormat.OPENAI_REALTIME, model, usage);
    }

    @Test
    void theReferenceExampleTurnFromItsResponseDoneEvent() {
        TokenUsage usage = RealtimeUsage.of(RealtimeEvents.done("completed", RealtimeEvents.AUDIO_TURN)).orElseThrow();
        // text in (68 - 13) * 4 = 220; audio in 13 * 32 = 416; cached text 64 * 0.40 = 25.6;
        // text out (121 - 91) * 16 = 480; audio out 91 * 64 = 5824; total 6965.6, rounded half-up
        assertThat(realtime("gpt-realtime", usage)).hasValue(6_966);
    }

    @Test
    void cachedAudioHasItsOwnPrice() {
        TokenUsage usage = usage(476, 400, 1024, Media.audio(432, 768, 320));
        // gpt-realtime: 44 * 4 = 176; 432 * 32 = 13824; 256 * 0.40 = 102.4; 768 * 0.40 = 307.2;
        // 80 * 16 = 1280; 320 * 64 = 20480; total 36169.6
        assertThat(realtime("gpt-realtime", usage)).hasValue(36_170);
        // gpt-realtime-mini: 44 * 0.60 = 26.4; 432 * 10 = 4320; 256 * 0.06 = 15.36; 768 * 0.30 = 230.4;
        // 80 * 2.40 = 192; 320 * 20 = 6400; total 11184.16 (cached audio at 0.30, not the cache read 0.06)
        assertThat(realtime("gpt-realtime-mini", usage)).hasValue(11_184);
    }

    @Test
    void imageInputHasItsOwnPrice() {
        // 100 text * 4 + 100 image * 5 = 900; cached: 60 text * 0.40 + 40 image * 0.50 = 44
        assertThat(realtime("gpt-realtime", usage(200, 0, 0, new Media(0, 0, 0, 100, 0)))).hasValue(900);
        assertThat(realtime("gpt-realtime", usage(0, 0, 100, new Media(0, 0, 0, 0, 40)))).hasValue(44);
    }

    @Test
    void withoutACachePriceCachedAudioIsPricedAsAudioInput() {
        TokenUsage usage = usage(1000, 200, 100, Media.audio(600, 100, 150));
        // Nova Sonic: 400 * 0.06 = 24; 600 * 3.40 = 2040; cached audio 100 * 3.40 = 340;
        // 50 * 0.24 = 12; 150 * 13.60 = 2040; total 4456 (the package's calcPrice gives the same)
        assertThat(costs.cost(Provider.BEDROCK, WireFormat.BEDROCK_CONVERSE, "amazon.nova-sonic-v1:0", usage))
                .hasValue(4_456);
    }

    private static final String TEXT_PRICED = """
            {"providers": [{"id": "openai", "models": [
              {"id": "text", "match": {"equals": "text"}, "prices": {"input_mtok": 1, "cache_read_mtok": 0.5, "output_mtok": 2}},
              {"id": "no-cached-audio", "match": {"equals": "no-cached-audio"},
               "prices": {"input_mtok": 1, "cache_read_mtok": 0.5, "output_mtok": 2, "input_audio_mtok": 10}}]}
            ]}
            """;

    @Test
    void audioWithoutItsOwnPriceIsPricedAtItsBucketsTextPrice() throws IOException {
        Costs small = new Costs(PriceTable.read(TEXT_PRICED.getBytes(StandardCharsets.UTF_8)), NOW,
                Costs.Options.DEFAULT);
        TokenUsage usage = usage(100, 10, 20, new Media(60, 20, 10, 30, 0));
        // all text prices: 100 * 1 + 20 * 0.5 + 10 * 2 = 130
        assertThat(small.cost(Provider.OPENAI, WireFormat.OPENAI_REALTIME, "text", usage)).hasValue(130);
        // audio in 60 * 10 + the rest of the input (images unpriced: text) 40 * 1 + cached audio at the cache read
        // price 20 * 0.5 + audio out at the text output price 10 * 2 = 600 + 40 + 10 + 20 = 670
        assertThat(small.cost(Provider.OPENAI, WireFormat.OPENAI_REALTIME, "no-cached-audio", usage)).hasValue(670);
    }

    @Test
    void maxCostReservesAtTheAudioPrices() {
        RequestShape turn = new RequestShape(WireFormat.OPENAI_REALTIME, Optional.of("gpt-realtime"), true,
                OptionalLong.of(500), 1000, false);
        // 1000 * max(4, 0.40, 32, 0.40, 5, 0.50) + 500 * max(16, 64) = 32000 + 32000
        assertThat(costs.maxCost(Provider.OPENAI, turn)).hasValue(64_000);
        RequestShape open = new RequestShape(WireFormat.OPENAI_REALTIME, Optional.of("gpt-realtime"), true,
                OptionalLong.empty(), 1000, true);
        // input and output bounded by the 32,000-token window: 32000 * 32 + 32000 * 64
        assertThat(costs.maxCost(Provider.OPENAI, open)).hasValue(3_072_000);
    }

    @Test
    void absurdRealtimeCountsChargeTheMostNeverOverflow() {
        TokenUsage usage = usage(Long.MAX_VALUE, Long.MAX_VALUE, 0, Media.audio(Long.MAX_VALUE, 0, Long.MAX_VALUE));
        assertThat(realtime("gpt-realtime", usage)).hasValue(Long.MAX_VALUE);
    }
}
