package dev.stockade.inference;

import static dev.stockade.inference.RealtimeEvents.AUDIO_TURN;
import static dev.stockade.inference.RealtimeEvents.CACHED_AUDIO_TURN;
import static dev.stockade.inference.RealtimeEvents.done;
import static dev.stockade.inference.RealtimeEvents.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.inference.TokenUsage.Media;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Realtime {@code response.done} events shaped as OpenAI's reference and openai-node's {@code RealtimeResponseUsage}
 * show them: {@code input_tokens} counts cached tokens, each modality's count includes its cached part.
 */
class RealtimeUsageTest {

    @Test
    void aTextOnlyResponseHasNoMediaParts() {
        JsonNode event = done("completed", """
                {"total_tokens": 52, "input_tokens": 40, "output_tokens": 12,
                 "input_token_details": {"text_tokens": 40, "audio_tokens": 0, "image_tokens": 0, "cached_tokens": 0,
                   "cached_tokens_details": {"text_tokens": 0, "audio_tokens": 0, "image_tokens": 0}},
                 "output_token_details": {"text_tokens": 12, "audio_tokens": 0}}
                """);
        assertThat(RealtimeUsage.of(event)).contains(TokenUsage.of(40, 12));
    }

    @Test
    void audioInAndOutArePartsOfTheirBucketsAndCachedTokensLeaveTheInput() {
        // input 132 - 64 cached = 68 (13 of them audio); cache read 64 text; output 121 (91 audio)
        assertThat(RealtimeUsage.of(done("completed", AUDIO_TURN))).contains(
                new TokenUsage(68, 121, 64, 0, 0, 0, OptionalLong.empty(), 0, Media.audio(13, 0, 91)));
    }

    @Test
    void cachedAudioIsPartOfTheCacheReadsAndLeavesTheUncachedAudio() {
        // input 1500 - 1024 = 476, audio 1200 - 768 cached = 432 of it; cache read 1024, 768 of it audio
        assertThat(RealtimeUsage.of(done("completed", CACHED_AUDIO_TURN))).contains(
                new TokenUsage(476, 400, 1024, 0, 0, 0, OptionalLong.empty(), 0, Media.audio(432, 768, 320)));
    }

    @Test
    void imageTokensArePartsToo() {
        JsonNode event = done("completed", """
                {"input_tokens": 200, "output_tokens": 0, "input_token_details": {"text_tokens": 100,
                 "audio_tokens": 0, "image_tokens": 100, "cached_tokens": 40,
                 "cached_tokens_details": {"text_tokens": 0, "audio_tokens": 0, "image_tokens": 40}}}
                """);
        assertThat(RealtimeUsage.of(event)).contains(
                new TokenUsage(160, 0, 40, 0, 0, 0, OptionalLong.empty(), 0, new Media(0, 0, 0, 60, 40)));
    }

    @Test
    void aResponseDoneWithoutUsageAndOtherEventsHaveNone() {
        JsonNode cancelled = json("""
                {"type": "response.done", "event_id": "event_9", "response": {"id": "resp_9", "status": "cancelled",
                 "status_details": {"type": "cancelled", "reason": "turn_detected"}, "output": []}}
                """);
        assertThat(RealtimeUsage.of(cancelled)).isEmpty();
        assertThat(RealtimeUsage.of(done("failed", "null"))).isEmpty();
        assertThat(RealtimeUsage.of(done("failed", "[1, 2]"))).isEmpty();
        JsonNode created = json("""
                {"type": "response.created", "event_id": "event_1", "response": {"id": "resp_9",
                 "status": "in_progress", "output": [], "usage": null}}
                """);
        assertThat(RealtimeUsage.of(created)).isEmpty();
        // the same usage under another event type is not a response's bill
        JsonNode other = json("{\"type\": \"response.output_audio.delta\", \"response\": {\"usage\": " + AUDIO_TURN + "}}");
        assertThat(RealtimeUsage.of(other)).isEmpty();
        assertThat(RealtimeUsage.of(json("{\"type\": \"error\", \"error\": {\"type\": \"invalid_request_error\"}}")))
                .isEmpty();
        assertThat(RealtimeUsage.of(json("[]"))).isEmpty();
        assertThat(RealtimeUsage.of(json("{\"type\": 7, \"response\": {\"usage\": {}}}"))).isEmpty();
        assertThat(RealtimeUsage.of(null)).isEmpty();
    }

    @Test
    void negativeFractionalTextualAndOversizedCountsAreReadAsAbsent() {
        JsonNode event = done("completed", """
                {"input_tokens": -5, "output_tokens": 99999999999999999999,
                 "input_token_details": {"text_tokens": 1.5, "audio_tokens": "30", "cached_tokens": -1,
                   "cached_tokens_details": "none"},
                 "output_token_details": {"text_tokens": 1e3, "audio_tokens": 7}}
                """);
        assertThat(RealtimeUsage.of(event)).contains(
                new TokenUsage(0, 7, 0, 0, 0, 0, OptionalLong.empty(), 0, Media.audio(0, 0, 7)));
    }

    @Test
    void tokensTheDetailsLeaveUnattributedCountAsAudio() {
        // only the totals, as some deployments send (openai-agents-js#538): the dearest modality is assumed
        JsonNode bare = done("completed", "{\"input_tokens\": 132, \"output_tokens\": 121}");
        assertThat(RealtimeUsage.of(bare)).contains(
                new TokenUsage(132, 121, 0, 0, 0, 0, OptionalLong.empty(), 0, Media.audio(132, 0, 121)));
        JsonNode partial = done("completed", """
                {"input_tokens": 100, "output_tokens": 50, "input_token_details": {"text_tokens": 60,
                 "cached_tokens": 30}, "output_token_details": {"text_tokens": 20}}
                """);
        // input 100 - 30 cached = 70, audio 40 unattributed (cut to 70 at most); cached 30 unattributed: audio
        assertThat(RealtimeUsage.of(partial)).contains(
                new TokenUsage(70, 50, 30, 0, 0, 0, OptionalLong.empty(), 0, Media.audio(40, 30, 30)));
    }

    @Test
    void aTotalBelowItsDetailsIsRaisedToThem() {
        JsonNode event = done("completed", """
                {"input_tokens": 10, "output_tokens": 1, "input_token_details": {"text_tokens": 50,
                 "audio_tokens": 50, "cached_tokens": 0}, "output_token_details": {"text_tokens": 5, "audio_tokens": 5}}
                """);
        assertThat(RealtimeUsage.of(event)).contains(
                new TokenUsage(100, 10, 0, 0, 0, 0, OptionalLong.empty(), 0, Media.audio(50, 0, 5)));
    }

    @Test
    void absurdCountsSaturateInsteadOfOverflowing() {
        long max = Long.MAX_VALUE;
        JsonNode event = done("completed", """
                {"input_tokens": %d, "output_tokens": %d, "input_token_details": {"text_tokens": %d,
                 "audio_tokens": %d}, "output_token_details": {"text_tokens": %d, "audio_tokens": %d}}
                """.formatted(max, max, max, max, max, max));
        TokenUsage usage = RealtimeUsage.of(event).orElseThrow();
        assertThat(usage.inputTokens()).isEqualTo(max);
        assertThat(usage.media().inputAudioTokens()).isEqualTo(max);
        assertThat(usage.outputTokens()).isEqualTo(max);
    }

    @Test
    void statusAndResponseIdForTheAuditEntry() {
        for (RealtimeUsage.Status status : RealtimeUsage.Status.values()) {
            assertThat(RealtimeUsage.status(done(status.wire(), "null"))).contains(status);
        }
        assertThat(RealtimeUsage.status(done("exploded", "null"))).isEmpty();
        assertThat(RealtimeUsage.responseId(done("completed", "null"))).contains("resp_CQx8Xq1YcPB0");
        assertThat(RealtimeUsage.responseId(json("{\"type\": \"response.done\", \"response\": {\"id\": \"resp 1\\n\"}}")))
                .as("not an id").isEmpty();
        assertThat(RealtimeUsage.responseId(json("{\"type\": \"response.done\", \"response\": {\"id\": \""
                + "r".repeat(129) + "\"}}"))).as("longer than any id").isEmpty();
        assertThat(RealtimeUsage.responseId(json("{\"type\": \"response.done\"}"))).isEmpty();
    }

    @Test
    void theSessionNamesItsModel() {
        JsonNode created = json("""
                {"type": "session.created", "event_id": "event_0", "session": {"type": "realtime",
                 "object": "realtime.session", "id": "sess_C9G5QPteg4UIbotdKLoYQ", "model": "gpt-realtime-2025-08-28",
                 "output_modalities": ["audio"]}}
                """);
        assertThat(RealtimeUsage.sessionModel(created)).contains("gpt-realtime-2025-08-28");
        assertThat(RealtimeUsage.sessionModel(done("completed", AUDIO_TURN))).isEmpty();
        assertThat(RealtimeUsage.sessionModel(json("{\"type\": \"session.updated\", \"session\": {\"model\": 4}}")))
                .isEmpty();
    }

    @Test
    void aWholeServerEventMetersThroughTheBodyMeterToo() {
        BodyMeter meter = new BodyMeter(WireLimits.DEFAULT);
        byte[] body = done("completed", AUDIO_TURN).toString().getBytes(StandardCharsets.UTF_8);
        BodyReading reading = meter.read(WireFormat.OPENAI_REALTIME, body, ResponseHeaders.of(Map.of()));
        assertThat(reading.usage()).isEqualTo(RealtimeUsage.of(done("completed", AUDIO_TURN)));
        assertThat(reading.problem()).isEmpty();
        BodyReading delta = meter.read(WireFormat.OPENAI_REALTIME,
                "{\"type\": \"response.output_audio.delta\", \"delta\": \"AAAA\"}".getBytes(StandardCharsets.UTF_8),
                ResponseHeaders.of(Map.of()));
        assertThat(delta.usage()).isEmpty();
    }

    @Test
    void theHttpReadersRefuseRealtime() {
        assertThat(WireFormat.OPENAI_REALTIME.family()).isEqualTo(WireFormat.Family.OPENAI);
        assertThat(WireFormat.fromPathTail("v1/realtime")).as("a WebSocket, not a metered HTTP call").isEmpty();
        assertThatThrownBy(() -> StreamMeter.start(WireFormat.OPENAI_REALTIME, WireLimits.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class);
        WireRoute route = new WireRoute(WireFormat.OPENAI_REALTIME, java.util.Optional.empty(), false);
        assertThatThrownBy(() -> new RequestReader(WireLimits.DEFAULT).read(route, "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no request body");
        StreamReading nothing = StreamMeterTest.meter(WireFormat.OPENAI_RESPONSES, new byte[0]);
        assertThatThrownBy(() -> TruncationEvent.bytes(WireFormat.OPENAI_REALTIME, nothing))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
