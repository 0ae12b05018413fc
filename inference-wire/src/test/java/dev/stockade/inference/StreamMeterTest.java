package dev.stockade.inference;

import static dev.stockade.inference.Fixtures.concat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Usage, model and end of each streamed wire format, whole and cut in the ways research/sdk-behaviour.md lists. */
class StreamMeterTest {

    static StreamReading meter(WireFormat format, byte[] stream) {
        StreamMeter meter = StreamMeter.start(format, WireLimits.DEFAULT);
        meter.feed(stream);
        return meter.finish();
    }

    /** The bytes before the first occurrence of {@code marker}. */
    static byte[] before(byte[] stream, String marker) {
        String text = new String(stream, StandardCharsets.ISO_8859_1);
        int at = text.indexOf(new String(marker.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
        assertThat(at).as("marker %s", marker).isPositive();
        return Arrays.copyOf(stream, at);
    }

    @Test
    void anthropicUsageIsCumulativeSoTheLastDeltaReplacesTheCount() {
        StreamReading reading = meter(WireFormat.ANTHROPIC_MESSAGES, Fixtures.resource("streams/anthropic-messages.sse"));
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.fault()).isEmpty();
        assertThat(reading.model()).contains("claude-sonnet-4-5-20250929");
        assertThat(reading.usage()).contains(new TokenUsage(25, 15, 2000, 1000, 0, 0, OptionalLong.empty()));
    }

    @Test
    void anthropicCutBeforeMessageStopIsTruncatedAndBillsWhatMessageStartReported() {
        byte[] cut = before(Fixtures.resource("streams/anthropic-messages.sse"), "event: content_block_delta");
        StreamReading reading = meter(WireFormat.ANTHROPIC_MESSAGES, cut);
        assertThat(reading.end()).isEqualTo(StreamEnd.TRUNCATED);
        assertThat(reading.fault()).isEmpty();
        assertThat(reading.usage()).contains(new TokenUsage(25, 1, 2000, 1000, 0, 0, OptionalLong.empty()));
    }

    @Test
    void halfAnEventThenACleanEndIsTruncatedWithAnIncompleteEvent() {
        byte[] whole = Fixtures.resource("streams/anthropic-messages.sse");
        byte[] cut = Arrays.copyOf(before(whole, "event: message_stop"), before(whole, "event: message_stop").length + 20);
        StreamReading reading = meter(WireFormat.ANTHROPIC_MESSAGES, cut);
        assertThat(reading.end()).isEqualTo(StreamEnd.TRUNCATED);
        assertThat(reading.fault()).contains(StreamFault.INCOMPLETE_EVENT);
        assertThat(reading.usage().orElseThrow().outputTokens()).isEqualTo(15);
    }

    @Test
    void anthropicErrorEventIsAnUpstreamError() {
        byte[] cut = before(Fixtures.resource("streams/anthropic-messages.sse"), "event: content_block_stop");
        byte[] error = ("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                + "\"message\":\"Overloaded\"}}\n\n").getBytes(StandardCharsets.UTF_8);
        StreamReading reading = meter(WireFormat.ANTHROPIC_MESSAGES, concat(cut, error));
        assertThat(reading.end()).isEqualTo(StreamEnd.UPSTREAM_ERROR);
        assertThat(reading.usage().orElseThrow().inputTokens()).isEqualTo(25);
    }

    @Test
    void anthropicEventsWithoutEventLinesAreJudgedByTheirType() {
        String whole = new String(Fixtures.resource("streams/anthropic-messages.sse"), StandardCharsets.UTF_8);
        byte[] unnamed = whole.replaceAll("(?m)^event: .*\n", "").getBytes(StandardCharsets.UTF_8);
        StreamReading reading = meter(WireFormat.ANTHROPIC_MESSAGES, unnamed);
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.usage()).contains(new TokenUsage(25, 15, 2000, 1000, 0, 0, OptionalLong.empty()));
    }

    @Test
    void responsesSequenceNumbersAreReadWithSpacesToo() {
        byte[] stream = ("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\", "
                + "\"sequence_number\": 41, \"delta\":\"x\"}\n\n").getBytes(StandardCharsets.UTF_8);
        assertThat(meter(WireFormat.OPENAI_RESPONSES, stream).lastSequence()).hasValue(41);
    }

    @Test
    void chatUsageComesFromTheExtraChunkAndCachedTokensLeaveTheInputBucket() {
        StreamReading reading = meter(WireFormat.OPENAI_CHAT, Fixtures.resource("streams/openai-chat.sse"));
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.model()).contains("gpt-4o-2024-08-06");
        assertThat(reading.usage()).contains(new TokenUsage(176, 40, 1024, 0, 0, 8, OptionalLong.empty()));
    }

    @Test
    void chatCutAfterTheFinishChunkButBeforeDoneIsTruncatedWithoutUsage() {
        byte[] cut = before(Fixtures.resource("streams/openai-chat.sse"), "data: {\"id\":\"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG\",\"object\":\"chat.completion.chunk\",\"created\":1741570283,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_f9f4fb6dbf\",\"choices\":[],");
        StreamReading reading = meter(WireFormat.OPENAI_CHAT, cut);
        assertThat(reading.end()).isEqualTo(StreamEnd.TRUNCATED);
        assertThat(reading.usage()).isEmpty();
    }

    @Test
    void chatCutAfterTheUsageChunkButBeforeDoneIsTruncatedWithUsage() {
        StreamReading reading = meter(WireFormat.OPENAI_CHAT, before(Fixtures.resource("streams/openai-chat.sse"), "data: [DONE]"));
        assertThat(reading.end()).isEqualTo(StreamEnd.TRUNCATED);
        assertThat(reading.usage().orElseThrow().outputTokens()).isEqualTo(40);
    }

    @Test
    void chatTopLevelErrorChunkIsAnUpstreamError() {
        byte[] error = "data: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}\n\n"
                .getBytes(StandardCharsets.UTF_8);
        StreamReading reading = meter(WireFormat.OPENAI_CHAT, error);
        assertThat(reading.end()).isEqualTo(StreamEnd.UPSTREAM_ERROR);
    }

    @Test
    void responsesUsageComesFromTheCompletedEventAndItsSequenceIsKept() {
        StreamReading reading = meter(WireFormat.OPENAI_RESPONSES, Fixtures.resource("streams/openai-responses.sse"));
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.model()).contains("gpt-4.1-2025-04-14");
        assertThat(reading.usage()).contains(new TokenUsage(200, 52, 128, 0, 0, 0, OptionalLong.empty()));
        assertThat(reading.lastSequence()).hasValue(2);
    }

    @Test
    void responsesIncompleteAndFailedAreTerminalToo() {
        for (String status : List.of("response.incomplete", "response.failed")) {
            byte[] stream = ("event: " + status + "\ndata: {\"type\":\"" + status + "\",\"sequence_number\":4,"
                    + "\"response\":{\"model\":\"gpt-4.1\",\"usage\":{\"input_tokens\":10,\"output_tokens\":3}}}\n\n")
                    .getBytes(StandardCharsets.UTF_8);
            StreamReading reading = meter(WireFormat.OPENAI_RESPONSES, stream);
            assertThat(reading.end()).as(status).isEqualTo(StreamEnd.COMPLETE);
            assertThat(reading.usage()).as(status).contains(TokenUsage.of(10, 3));
        }
    }

    @Test
    void responsesWebSearchCallsInTheFinalOutputAreCounted() {
        byte[] stream = ("event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":9,"
                + "\"response\":{\"model\":\"gpt-4.1\",\"output\":[{\"type\":\"web_search_call\",\"id\":\"ws_1\"},"
                + "{\"type\":\"message\"}],\"usage\":{\"input_tokens\":10,\"output_tokens\":3}}}\n\n")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(meter(WireFormat.OPENAI_RESPONSES, stream).usage().orElseThrow().webSearches()).isEqualTo(1);
    }

    @Test
    void responsesCutBeforeCompletedIsTruncatedAndErrorEventIsAnUpstreamError() {
        byte[] whole = Fixtures.resource("streams/openai-responses.sse");
        assertThat(meter(WireFormat.OPENAI_RESPONSES, before(whole, "event: response.completed")).end())
                .isEqualTo(StreamEnd.TRUNCATED);
        byte[] error = "event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"x\",\"param\":null,\"sequence_number\":2}\n\n"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(meter(WireFormat.OPENAI_RESPONSES, concat(before(whole, "event: response.completed"), error)).end())
                .isEqualTo(StreamEnd.UPSTREAM_ERROR);
    }

    @Test
    void bedrockInvokeStreamTakesBedrocksOwnCountsFromTheLastChunk() {
        StreamReading reading = meter(WireFormat.BEDROCK_INVOKE, Fixtures.invokeStream(Fixtures.BEDROCK_INVOKE_EVENTS));
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.fault()).isEmpty();
        assertThat(reading.model()).contains("claude-sonnet-4-5-20250929");
        assertThat(reading.usage()).contains(new TokenUsage(25, 15, 2000, 1000, 0, 0, OptionalLong.empty()));
    }

    @Test
    void bedrockInvokeCutOnAFrameBoundaryIsTruncatedAndHalfAFrameIsIncomplete() {
        List<String> events = Fixtures.BEDROCK_INVOKE_EVENTS;
        byte[] boundary = Fixtures.invokeStream(events.subList(0, events.size() - 1));
        StreamReading clean = meter(WireFormat.BEDROCK_INVOKE, boundary);
        assertThat(clean.end()).isEqualTo(StreamEnd.TRUNCATED);
        assertThat(clean.fault()).isEmpty();
        assertThat(clean.usage().orElseThrow().outputTokens()).isEqualTo(15);

        byte[] whole = Fixtures.invokeStream(events);
        StreamReading half = meter(WireFormat.BEDROCK_INVOKE, Arrays.copyOf(whole, boundary.length + 30));
        assertThat(half.end()).isEqualTo(StreamEnd.TRUNCATED);
        assertThat(half.fault()).contains(StreamFault.INCOMPLETE_EVENT);
    }

    @Test
    void bedrockInvokeStreamsOfOtherModelsEndWithBedrocksMetrics() {
        byte[] llama = Fixtures.invokeStream(java.util.List.of(
                "{\"generation\":\"Hi\",\"prompt_token_count\":12,\"generation_token_count\":1,\"stop_reason\":null}",
                "{\"generation\":\"!\",\"prompt_token_count\":null,\"generation_token_count\":2,\"stop_reason\":\"stop\","
                        + "\"amazon-bedrock-invocationMetrics\":{\"inputTokenCount\":12,\"outputTokenCount\":2,"
                        + "\"invocationLatency\":200,\"firstByteLatency\":90}}"));
        StreamReading reading = meter(WireFormat.BEDROCK_INVOKE, llama);
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.usage()).contains(TokenUsage.of(12, 2));
    }

    @Test
    void bedrockExceptionFrameIsAnUpstreamError() {
        byte[] stream = concat(Fixtures.invokeStream(Fixtures.BEDROCK_INVOKE_EVENTS.subList(0, 2)),
                Fixtures.exceptionFrame("modelStreamErrorException", "{\"message\":\"boom\",\"originalStatusCode\":500}"));
        assertThat(meter(WireFormat.BEDROCK_INVOKE, stream).end()).isEqualTo(StreamEnd.UPSTREAM_ERROR);
        byte[] converse = concat(Fixtures.converseStream(false),
                Fixtures.exceptionFrame("throttlingException", "{\"message\":\"slow down\"}"));
        assertThat(meter(WireFormat.BEDROCK_CONVERSE, converse).end()).isEqualTo(StreamEnd.UPSTREAM_ERROR);
    }

    @Test
    void converseStreamEndsWithMetadataWhichCarriesTheUsage() {
        StreamReading reading = meter(WireFormat.BEDROCK_CONVERSE, Fixtures.converseStream(true));
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.usage()).contains(new TokenUsage(30, 12, 5, 0, 0, 0, OptionalLong.empty()));
        StreamReading cut = meter(WireFormat.BEDROCK_CONVERSE, Fixtures.converseStream(false));
        assertThat(cut.end()).isEqualTo(StreamEnd.TRUNCATED);
        assertThat(cut.usage()).isEmpty();
    }

    @Test
    void aCorruptedFrameChecksumStopsMeteringAsMalformed() {
        byte[] stream = Fixtures.converseStream(true);
        stream[stream.length - 1] ^= 0x55; // the last frame's message CRC
        StreamReading reading = meter(WireFormat.BEDROCK_CONVERSE, stream);
        assertThat(reading.fault()).contains(StreamFault.MALFORMED_FRAME);
        assertThat(reading.end()).isEqualTo(StreamEnd.TRUNCATED);
    }

    @Test
    void aLineLongerThanTheBoundStopsMeteringWithoutGrowingABuffer() {
        StreamMeter meter = StreamMeter.start(WireFormat.OPENAI_CHAT, new WireLimits(1024, 64));
        meter.feed(("data: " + "x".repeat(100) + "\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
        StreamReading reading = meter.finish();
        assertThat(reading.fault()).contains(StreamFault.OVERSIZED_EVENT);
        assertThat(reading.end()).isEqualTo(StreamEnd.TRUNCATED);
    }

    @Test
    void anEventOfManyShortDataLinesIsBoundedToo() {
        StreamMeter meter = StreamMeter.start(WireFormat.ANTHROPIC_MESSAGES, new WireLimits(1024, 64));
        meter.feed("data: 0123456789\n".repeat(10).getBytes(StandardCharsets.UTF_8));
        assertThat(meter.finish().fault()).contains(StreamFault.OVERSIZED_EVENT);
    }

    @Test
    void aFrameDeclaringMoreThanTheBoundIsRefusedBeforeItsBytesArrive() {
        StreamMeter meter = StreamMeter.start(WireFormat.BEDROCK_CONVERSE, new WireLimits(1024, 64));
        meter.feed(Fixtures.converseStream(true));
        assertThat(meter.finish().fault()).contains(StreamFault.OVERSIZED_EVENT);
    }

    @Test
    void unparsableEventJsonIsAFaultButMeteringGoesOn() {
        byte[] stream = concat("data: {not json\n\n".getBytes(StandardCharsets.UTF_8),
                Fixtures.resource("streams/openai-chat.sse"));
        StreamReading reading = meter(WireFormat.OPENAI_CHAT, stream);
        assertThat(reading.fault()).contains(StreamFault.MALFORMED_EVENT);
        assertThat(reading.end()).isEqualTo(StreamEnd.COMPLETE);
        assertThat(reading.usage().orElseThrow().outputTokens()).isEqualTo(40);
    }

    @Test
    void embeddingsNeverStreamAndAFinishedMeterTakesNoMoreBytes() {
        assertThatThrownBy(() -> StreamMeter.start(WireFormat.OPENAI_EMBEDDINGS, WireLimits.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class);
        StreamMeter meter = StreamMeter.start(WireFormat.OPENAI_CHAT, WireLimits.DEFAULT);
        meter.finish();
        assertThatThrownBy(() -> meter.feed(new byte[1])).isInstanceOf(IllegalStateException.class);
    }
}
