package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;

/**
 * Fuzz targets for the parsers that face upstream and client bytes. Under plain {@code mvn test} they run in
 * regression mode over their seeds (the stream fixtures and request bodies); {@code JAZZER_FUZZ=1} fuzzes for
 * real. Whatever the bytes: no exception escapes, slicing a stream never changes its reading, and a realtime
 * event's usage keeps its audio and image parts inside their buckets.
 */
class WireParsersFuzzTest {

    private static final WireFormat[] STREAMED = {WireFormat.ANTHROPIC_MESSAGES, WireFormat.OPENAI_CHAT,
        WireFormat.OPENAI_RESPONSES, WireFormat.BEDROCK_INVOKE, WireFormat.BEDROCK_CONVERSE};
    private static final WireLimits SMALL = new WireLimits(4096, 512);

    @FuzzTest(maxDuration = "60s")
    void meterStream(FuzzedDataProvider data) {
        WireFormat format = data.pickValue(STREAMED);
        int slice = data.consumeInt(1, 64);
        byte[] stream = data.consumeRemainingAsBytes();
        StreamMeter whole = StreamMeter.start(format, SMALL);
        whole.feed(stream);
        StreamMeter sliced = StreamMeter.start(format, SMALL);
        for (int at = 0; at < stream.length; at += slice) {
            sliced.feed(stream, at, Math.min(slice, stream.length - at));
        }
        StreamReading reading = sliced.finish();
        assertThat(reading).isEqualTo(whole.finish());
        assertThat(reading.end()).isNotNull();
    }

    @FuzzTest(maxDuration = "60s")
    void readRequest(FuzzedDataProvider data) {
        String tail = data.pickValue(new String[] {"v1/messages", "v1/chat/completions", "v1/responses",
            "v1/embeddings", "model/m/invoke-with-response-stream", "model/m/converse"});
        byte[] body = data.consumeRemainingAsBytes();
        RequestReader reader = new RequestReader(SMALL);
        try {
            RequestShape shape = reader.read(WireRoute.of(tail).orElseThrow(), body);
            assertThat(shape.inputTokenBound()).isGreaterThanOrEqualTo(body.length);
            ForwardBody forward = reader.withStreamUsage(body);
            assertThat(forward.bytes()).isNotEmpty();
        } catch (WireException refused) {
            assertThat(refused.problem()).isNotNull();
        }
        new BodyMeter(SMALL).read(WireFormat.OPENAI_CHAT, body, ResponseHeaders.NONE);
    }

    @FuzzTest(maxDuration = "60s")
    void readRealtimeEvent(FuzzedDataProvider data) {
        byte[] event = data.consumeRemainingAsBytes();
        BodyReading reading = new BodyMeter(SMALL).read(WireFormat.OPENAI_REALTIME, event, ResponseHeaders.NONE);
        reading.usage().ifPresent(WireParsersFuzzTest::partsInsideTheirBuckets);
        JsonNode node;
        try {
            node = new ObjectMapper().readTree(event);
        } catch (IOException | RuntimeException notJson) {
            return;
        }
        Optional<TokenUsage> usage = RealtimeUsage.of(node);
        if (reading.problem().isEmpty()) {
            assertThat(usage).isEqualTo(reading.usage());
        }
        RealtimeUsage.responseId(node).ifPresent(id -> assertThat(id).hasSizeLessThanOrEqualTo(128));
        RealtimeUsage.status(node);
        RealtimeUsage.sessionModel(node);
    }

    private static void partsInsideTheirBuckets(TokenUsage usage) {
        TokenUsage.Media media = usage.media();
        assertThat(media.inputAudioTokens() + media.inputImageTokens()).isBetween(0L, usage.inputTokens());
        assertThat(media.cacheReadAudioTokens() + media.cacheReadImageTokens()).isBetween(0L, usage.cacheReadTokens());
        assertThat(media.outputAudioTokens() + usage.reasoningTokens()).isBetween(0L, usage.outputTokens());
    }
}
