package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.WireFormat;
import dev.stockade.pii.MaskedText;
import dev.stockade.pii.MaskingSettings;
import dev.stockade.pii.PiiMasker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;
import software.amazon.eventstream.MessageDecoder;

/**
 * The restoring stage on Bedrock's AWS event-stream bytes, encoded and decoded with AWS's own codec: a placeholder
 * split across InvokeModelWithResponseStream chunks or ConverseStream deltas at every position, in a body cut into
 * chunks of every size, comes back whole; every frame out passes the codec's CRC checks with its headers as they
 * were; a frame whose text is held back still goes out; frames without text pass byte for byte.
 */
class EventStreamRestorationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ORIGINAL = "Mail jane.doe@example.org or \"Zoë\" today";
    private static final PiiMasker MASKER = PiiMasker.create(MaskingSettings.fromPolicy(List.of("EMAIL"), true, false));

    @Test
    void anInvokeStreamPlaceholderSplitAcrossChunksIsRestoredAtEverySplitAndChunkSize() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        for (int split = 1; split < masked.text().length(); split++) {
            List<String> deltas = List.of(masked.text().substring(0, split), masked.text().substring(split));
            byte[] wire = invokeStream(deltas);
            for (int chunk : new int[] {1, 7, 100, wire.length}) {
                List<Message> out = frames(restore(WireFormat.BEDROCK_INVOKE, masked, wire, chunk));
                assertThat(invokeText(out)).as("split %d chunk %d", split, chunk).isEqualTo(ORIGINAL);
                out.forEach(f -> assertThat(f.getHeaders()).isEqualTo(headers("chunk")));
            }
        }
    }

    @Test
    void aConverseStreamPlaceholderSplitAcrossDeltasIsRestoredAtEverySplitAndChunkSize() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        for (int split = 1; split < masked.text().length(); split++) {
            List<String> deltas = List.of(masked.text().substring(0, split), masked.text().substring(split));
            byte[] wire = converseStream(deltas);
            for (int chunk : new int[] {1, 7, 100, wire.length}) {
                List<Message> out = frames(restore(WireFormat.BEDROCK_CONVERSE, masked, wire, chunk));
                assertThat(converseText(out)).as("split %d chunk %d", split, chunk).isEqualTo(ORIGINAL);
                assertThat(out.get(out.size() - 1).getHeaders()).isEqualTo(headers("metadata"));
            }
        }
    }

    @Test
    void aFrameWhoseTextIsHeldBackStillGoesOutAndTheRestComesBeforeTheBlocksStop() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        EventStreamRestoration stage = new EventStreamRestoration(WireFormat.BEDROCK_CONVERSE, masked.restorer());
        byte[] first = stage.push(frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"[EM\"}}"));
        List<Message> out = frames(first);
        assertThat(out).hasSize(1);
        assertThat(JSON.readTree(out.get(0).getPayload()).path("delta").path("text").asText()).isEmpty();
        List<Message> rest = frames(stage.push(frame("contentBlockStop", "{\"contentBlockIndex\":0}")));
        assertThat(rest).extracting(f -> f.getHeaders().get(":event-type").getString())
                .containsExactly("contentBlockDelta", "contentBlockStop");
        assertThat(converseText(rest)).isEqualTo("[EM");
    }

    @Test
    void converseReasoningPassesAsSentAndATextBlockThatNeverStopsIsFlushedBeforeMessageStop() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String t = masked.text();
        int cut = t.indexOf("[EMAIL_") + 3;
        ByteArrayOutputStream signed = new ByteArrayOutputStream();
        for (String piece : List.of(t.substring(0, cut), t.substring(cut))) {
            signed.writeBytes(frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":"
                    + "{\"text\":" + JSON.writeValueAsString(piece) + "}}}"));
        }
        signed.writeBytes(frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":"
                + "{\"signature\":\"c2ln\"}}}"));
        signed.writeBytes(frame("contentBlockStop", "{\"contentBlockIndex\":0}"));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(signed.toByteArray());
        for (String piece : List.of(t.substring(0, cut), t.substring(cut), "and [EM")) {
            wire.writeBytes(frame("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"text\":"
                    + JSON.writeValueAsString(piece) + "}}"));
        }
        wire.writeBytes(frame("messageStop", "{\"stopReason\":\"end_turn\"}"));
        byte[] out = restore(WireFormat.BEDROCK_CONVERSE, masked, wire.toByteArray(), 6);
        assertThat(Arrays.copyOf(out, signed.size())).as("the signed block, byte for byte")
                .isEqualTo(signed.toByteArray());
        List<Message> frames = frames(out);
        assertThat(converseText(frames)).isEqualTo(ORIGINAL + "and [EM");
        assertThat(frames.subList(4, frames.size())).extracting(f -> f.getHeaders().get(":event-type").getString())
                .containsExactly("contentBlockDelta", "contentBlockDelta", "contentBlockDelta", "contentBlockDelta",
                        "messageStop");
    }

    @Test
    void anInvokeStreamsThinkingPassesByteForByteWhileItsTextIsRestored() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String t = masked.text();
        int cut = t.indexOf("[EMAIL_") + 5;
        List<String> pieces = List.of(t.substring(0, cut), t.substring(cut));
        byte[] thinking = chunks(("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n"
                + ToolInputRestorationTest.anthropicBlock(0, "thinking", "thinking_delta", "thinking", pieces))
                .getBytes(StandardCharsets.UTF_8));
        byte[] text = chunks(ToolInputRestorationTest.anthropicBlock(1, "text", "text_delta", "text", pieces)
                .getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(thinking);
        wire.writeBytes(text);
        for (int chunk : new int[] {1, 7, 100, wire.size()}) {
            byte[] out = restore(WireFormat.BEDROCK_INVOKE, masked, wire.toByteArray(), chunk);
            assertThat(Arrays.copyOf(out, thinking.length)).as("chunk %d: signed, byte for byte", chunk)
                    .isEqualTo(thinking);
            assertThat(invokeText(frames(Arrays.copyOfRange(out, thinking.length, out.length))))
                    .isEqualTo(ORIGINAL);
        }
    }

    @Test
    void aConverseToolUseInputSplitAnywhereAssemblesToJsonWithTheOriginalValue() throws IOException {
        MaskedText masked = ToolInputRestorationTest.MASKER.mask(ToolInputRestorationTest.ORIGINAL);
        String input = ToolInputRestorationTest.toolInput(masked);
        for (int split = 1; split < input.length(); split++) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (String piece : List.of(input.substring(0, split), input.substring(split))) {
                wire.writeBytes(frame("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"toolUse\":"
                        + "{\"input\":" + JSON.writeValueAsString(piece) + "}}}"));
            }
            wire.writeBytes(frame("contentBlockStop", "{\"contentBlockIndex\":1}"));
            StringBuilder assembled = new StringBuilder();
            for (Message f : frames(restore(WireFormat.BEDROCK_CONVERSE, masked, wire.toByteArray(), 13))) {
                assembled.append(JSON.readTree(f.getPayload()).path("delta").path("toolUse").path("input").asText());
            }
            assertThat(JSON.readTree(assembled.toString()).path("note").asText()).as("split %d", split)
                    .isEqualTo(ToolInputRestorationTest.ORIGINAL);
        }
    }

    @Test
    void anInvokeStreamToolInputIsRestoredAsJsonAcrossChunks() throws IOException {
        MaskedText masked = ToolInputRestorationTest.MASKER.mask(ToolInputRestorationTest.ORIGINAL);
        String input = ToolInputRestorationTest.toolInput(masked);
        int cut = input.indexOf("[ADDRESS_") + 6;
        byte[] sse = ToolInputRestorationTest.anthropicStream("tool_use", "input_json_delta", "partial_json",
                List.of(input.substring(0, cut), input.substring(cut)));
        StringBuilder assembled = new StringBuilder();
        for (Message f : frames(restore(WireFormat.BEDROCK_INVOKE, masked, chunks(sse), 7))) {
            String bytes = JSON.readTree(f.getPayload()).path("bytes").asText();
            assembled.append(JSON.readTree(Base64.getDecoder().decode(bytes)).path("delta").path("partial_json")
                    .asText(""));
        }
        assertThat(JSON.readTree(assembled.toString()).path("note").asText())
                .isEqualTo(ToolInputRestorationTest.ORIGINAL);
    }

    @Test
    void framesWithoutTextAndExceptionFramesPassByteForByte() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        Map<String, HeaderValue> exception = new LinkedHashMap<>();
        exception.put(":message-type", HeaderValue.fromString("exception"));
        exception.put(":exception-type", HeaderValue.fromString("throttlingException"));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(frame("messageStart", "{\"role\":\"assistant\",\"p\":\"abcd\"}"));
        wire.writeBytes(frame("metadata", "{\"usage\":{\"inputTokens\":3,\"outputTokens\":2},\"p\":\"ab\"}"));
        wire.writeBytes(encode(new Message(exception, "{\"message\":\"slow down\"}".getBytes(StandardCharsets.UTF_8))));
        byte[] in = wire.toByteArray();
        assertThat(restore(WireFormat.BEDROCK_CONVERSE, masked, in, 5)).isEqualTo(in);
    }

    @Test
    void aFrameOverTheBoundAndABrokenStreamPassAsTheyAre() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String big = "x".repeat(EventStreamFrames.MAX_FRAME) + masked.text();
        byte[] large = frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"" + big + "\"}}");
        byte[] broken = frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"x\"}}");
        broken[broken.length - 1] ^= 1; // the message CRC no longer matches
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(large);
        wire.writeBytes(broken);
        wire.writeBytes(frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"" + masked.text()
                + "\"}}"));
        byte[] in = wire.toByteArray();
        assertThat(restore(WireFormat.BEDROCK_CONVERSE, masked, in, 4096)).isEqualTo(in);
    }

    private static byte[] restore(WireFormat format, MaskedText masked, byte[] wire, int chunk) throws IOException {
        LlmProxy.Answer answer = new LlmProxy.Answer(200, Map.of("Content-Type",
                List.of("application/vnd.amazon.eventstream")), new SseRestorationTest.ChunkedStream(wire, chunk));
        try (InputStream restored = RestoringBody.restore(answer, format, masked.restorer()).body()) {
            return restored.readAllBytes();
        }
    }

    /** The events of an Anthropic server-sent event stream, each in a {@code chunk} frame. */
    private static byte[] chunks(byte[] sse) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (JsonNode event : ToolInputRestorationTest.events(sse)) {
            out.writeBytes(frame("chunk", "{\"bytes\":\"" + Base64.getEncoder().encodeToString(
                    JSON.writeValueAsBytes(event)) + "\"}"));
        }
        return out.toByteArray();
    }

    /** Anthropic stream events in {@code chunk} frames, as InvokeModelWithResponseStream sends them. */
    private static byte[] invokeStream(List<String> deltas) throws IOException {
        List<String> events = new ArrayList<>();
        events.add("{\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"content\":[]}}");
        events.add("{\"type\":\"content_block_start\",\"index\":0,"
                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
        for (String d : deltas) {
            events.add("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":"
                    + JSON.writeValueAsString(d) + "}}");
        }
        events.add("{\"type\":\"content_block_stop\",\"index\":0}");
        events.add("{\"type\":\"message_stop\",\"amazon-bedrock-invocationMetrics\":{\"inputTokenCount\":3}}");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String e : events) {
            out.writeBytes(frame("chunk", "{\"bytes\":\"" + Base64.getEncoder().encodeToString(
                    e.getBytes(StandardCharsets.UTF_8)) + "\",\"p\":\"abcdefgh\"}"));
        }
        return out.toByteArray();
    }

    private static byte[] converseStream(List<String> deltas) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(frame("messageStart", "{\"role\":\"assistant\"}"));
        for (String d : deltas) {
            out.writeBytes(frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":"
                    + JSON.writeValueAsString(d) + "},\"p\":\"ab\"}"));
        }
        out.writeBytes(frame("contentBlockStop", "{\"contentBlockIndex\":0}"));
        out.writeBytes(frame("messageStop", "{\"stopReason\":\"end_turn\"}"));
        out.writeBytes(frame("metadata", "{\"usage\":{\"inputTokens\":3,\"outputTokens\":2}}"));
        return out.toByteArray();
    }

    /** The frames of a body, decoded by AWS's codec, which fails on a bad CRC. */
    private static List<Message> frames(byte[] body) {
        List<Message> out = new ArrayList<>();
        new MessageDecoder(out::add).feed(body);
        return out;
    }

    private static String invokeText(List<Message> frames) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Message f : frames) {
            String bytes = JSON.readTree(f.getPayload()).path("bytes").asText();
            JsonNode e = JSON.readTree(Base64.getDecoder().decode(bytes));
            if (e.path("type").asText().equals("content_block_delta")) {
                text.append(e.path("delta").path("text").asText());
            }
        }
        return text.toString();
    }

    private static String converseText(List<Message> frames) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Message f : frames) {
            if (f.getHeaders().get(":event-type").getString().equals("contentBlockDelta")) {
                text.append(JSON.readTree(f.getPayload()).path("delta").path("text").asText());
            }
        }
        return text.toString();
    }

    private static Map<String, HeaderValue> headers(String eventType) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString(eventType));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        return headers;
    }

    private static byte[] frame(String eventType, String json) {
        return encode(new Message(headers(eventType), json.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] encode(Message message) {
        ByteBuffer buffer = message.toByteBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
