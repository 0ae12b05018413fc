package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.WireFormat;
import dev.stockade.pii.MaskedText;
import dev.stockade.pii.MaskingSettings;
import dev.stockade.pii.PiiMasker;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The restoring stage on the wire bytes of Anthropic and OpenAI streams, with a real masker's placeholders: split
 * across events at every position, escaped inside the JSON string, and the stream cut into chunks of every size.
 * The expected text is the caller's own, never one the stage produced.
 */
class SseRestorationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ORIGINAL = "Mail jane.doe@example.org or \"Zoë\" today";
    private static final PiiMasker MASKER = PiiMasker.create(MaskingSettings.fromPolicy(List.of("EMAIL"), true, false));

    @Test
    void anAnthropicPlaceholderSplitAcrossDeltasIsRestoredAtEverySplitAndChunkSize() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        assertThat(masked.text()).doesNotContain("jane.doe@example.org").contains("[EMAIL_");
        for (int split = 1; split < masked.text().length(); split++) {
            byte[] wire = anthropicStream(List.of(masked.text().substring(0, split), masked.text().substring(split)));
            for (int chunk : new int[] {1, 3, 7, 64, wire.length}) {
                String text = anthropicText(restore(WireFormat.ANTHROPIC_MESSAGES, masked, wire, chunk));
                assertThat(text).as("split %d chunk %d", split, chunk).isEqualTo(ORIGINAL);
            }
        }
    }

    @Test
    void aPlaceholderWrittenWithJsonEscapesIsRestored() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String escaped = JSON.writeValueAsString(masked.text()).replace("[", "\\u005b").replace("]", "\\u005d");
        byte[] wire = ("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
                + "event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":" + escaped + "}}\r\n\r\n"
                + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(new String(wire, StandardCharsets.UTF_8)).doesNotContain("[EMAIL_");
        assertThat(anthropicText(restore(WireFormat.ANTHROPIC_MESSAGES, masked, wire, 5))).isEqualTo(ORIGINAL);
    }

    @Test
    void aChatCompletionsPlaceholderHeldAtTheLastDeltaComesWithTheFinishingChunk() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        for (int split = 1; split < masked.text().length(); split++) {
            byte[] wire = chatStream(List.of(masked.text().substring(0, split), masked.text().substring(split)));
            String text = chatText(restore(WireFormat.OPENAI_CHAT, masked, wire, 11));
            assertThat(text).as("split %d", split).isEqualTo(ORIGINAL);
        }
    }

    @Test
    void textHeldBackAsAPossiblePlaceholderIsReleasedAtTheEndOfItsBlockOrChoice() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        List<String> deltas = List.of("a list: [EM", "AIL_");
        byte[] anthropic = restore(WireFormat.ANTHROPIC_MESSAGES, masked, anthropicStream(deltas), 9);
        assertThat(anthropicText(anthropic)).isEqualTo("a list: [EMAIL_");
        String events = new String(anthropic, StandardCharsets.UTF_8);
        assertThat(events.indexOf("[EMAIL_")).as("released before the block's stop")
                .isLessThan(events.indexOf("content_block_stop"));
        byte[] chat = restore(WireFormat.OPENAI_CHAT, masked, chatStream(deltas), 9);
        assertThat(chatText(chat)).isEqualTo("a list: [EMAIL_");
    }

    @Test
    void anotherRequestsPlaceholderStaysAsItIs() throws IOException {
        MaskedText mine = MASKER.mask(ORIGINAL);
        MaskedText theirs = MASKER.mask("write to someone.else@example.com");
        byte[] wire = anthropicStream(List.of(theirs.text()));
        assertThat(anthropicText(restore(WireFormat.ANTHROPIC_MESSAGES, mine, wire, 4))).isEqualTo(theirs.text());
    }

    @Test
    void theStageHoldsAtMostOneEventAndPassesEventsWithoutTextByteForByte() {
        MaskedText masked = MASKER.mask(ORIGINAL);
        SseRestoration stage = new SseRestoration(WireFormat.ANTHROPIC_MESSAGES, masked.restorer());
        String ping = "event: ping\ndata: {\"type\": \"ping\"}\n\n";
        byte[] first = stage.push((ping + "event: ping\ndata: {\"ty").getBytes(StandardCharsets.UTF_8));
        assertThat(new String(first, StandardCharsets.UTF_8)).isEqualTo(ping);
        byte[] rest = stage.push("pe\": \"ping\"}\n\n".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(rest, StandardCharsets.UTF_8)).isEqualTo(ping);
        assertThat(stage.finish()).isEmpty();
    }

    @Test
    void aWholeJsonAnswerIsRestoredInItsStrings() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        byte[] body = JSON.writeValueAsBytes(Map.of("content", List.of(Map.of("type", "text", "text", masked.text()))));
        RestoringBody.WholeJson stage = new RestoringBody.WholeJson(masked.restorer(),
                dev.stockade.pii.WireFormat.ANTHROPIC_MESSAGES);
        assertThat(stage.push(body)).isEmpty();
        JsonNode restored = JSON.readTree(stage.finish());
        assertThat(restored.path("content").get(0).path("text").asText()).isEqualTo(ORIGINAL);
    }

    private static byte[] restore(WireFormat format, MaskedText masked, byte[] wire, int chunk) throws IOException {
        LlmProxy.Answer answer = new LlmProxy.Answer(200, Map.of("Content-Type", List.of("text/event-stream")),
                new ChunkedStream(wire, chunk));
        try (InputStream restored = RestoringBody.restore(answer, format, masked.restorer()).body()) {
            return restored.readAllBytes();
        }
    }

    private static byte[] anthropicStream(List<String> deltas) throws IOException {
        StringBuilder s = new StringBuilder("event: message_start\n")
                .append("data: {\"type\":\"message_start\",\"message\":{}}\n\n");
        s.append("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,")
                .append("\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
        for (String d : deltas) {
            s.append("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":")
                    .append("{\"type\":\"text_delta\",\"text\":").append(JSON.writeValueAsString(d)).append("}}\n\n");
        }
        s.append("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n");
        s.append("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] chatStream(List<String> deltas) throws IOException {
        StringBuilder s = new StringBuilder();
        for (String d : deltas) {
            s.append("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":")
                    .append(JSON.writeValueAsString(d)).append("},\"finish_reason\":null}]}\n\n");
        }
        s.append("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n");
        s.append("data: [DONE]\n\n");
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The text a client assembles from the stream's text deltas. */
    private static String anthropicText(byte[] stream) throws IOException {
        StringBuilder text = new StringBuilder();
        for (JsonNode event : events(stream)) {
            if (event.path("type").asText().equals("content_block_delta")) {
                text.append(event.path("delta").path("text").asText());
            }
        }
        return text.toString();
    }

    private static String chatText(byte[] stream) throws IOException {
        StringBuilder text = new StringBuilder();
        for (JsonNode event : events(stream)) {
            event.path("choices").forEach(c -> text.append(c.path("delta").path("content").asText("")));
        }
        return text.toString();
    }

    private static List<JsonNode> events(byte[] stream) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : new String(stream, StandardCharsets.UTF_8).split("\r?\n")) {
            if (line.startsWith("data: {")) {
                out.add(JSON.readTree(line.substring(6)));
            }
        }
        return out;
    }

    /** Hands out at most {@code chunk} bytes per read, as a network does. */
    static final class ChunkedStream extends ByteArrayInputStream {
        private final int chunk;

        ChunkedStream(byte[] bytes, int chunk) {
            super(bytes);
            this.chunk = chunk;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, chunk));
        }
    }
}
