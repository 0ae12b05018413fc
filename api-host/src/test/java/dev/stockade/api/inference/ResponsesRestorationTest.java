package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.WireFormat;
import dev.stockade.pii.MaskedText;
import dev.stockade.pii.MaskingSettings;
import dev.stockade.pii.PiiMasker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The restoring stage on OpenAI Responses wire bytes, with a real masker's placeholders: a placeholder split across
 * {@code response.output_text.delta} events at every position, in a stream cut into chunks of every size, comes back
 * whole in the deltas a client concatenates and in every event that repeats the whole text. The expected text is the
 * caller's own, never one the stage produced.
 */
class ResponsesRestorationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ORIGINAL = "Mail jane.doe@example.org or \"Zoë\" today";
    private static final PiiMasker MASKER = PiiMasker.create(MaskingSettings.fromPolicy(List.of("EMAIL"), true, false));

    @Test
    void aPlaceholderSplitAcrossTextDeltasIsRestoredAtEverySplitAndChunkSize() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        assertThat(masked.text()).doesNotContain("jane.doe@example.org").contains("[EMAIL_");
        for (int split = 1; split < masked.text().length(); split++) {
            byte[] wire = stream("output_text", masked.text(), List.of(masked.text().substring(0, split),
                    masked.text().substring(split)));
            for (int chunk : new int[] {1, 5, 64, wire.length}) {
                List<JsonNode> events = events(restore(masked, wire, chunk));
                assertThat(deltas(events, "response.output_text.delta")).as("split %d chunk %d", split, chunk)
                        .isEqualTo(ORIGINAL);
                assertThat(the(events, "response.output_text.done").path("text").asText()).isEqualTo(ORIGINAL);
                assertThat(the(events, "response.content_part.done").path("part").path("text").asText())
                        .isEqualTo(ORIGINAL);
                assertThat(the(events, "response.output_item.done").path("item").path("content").get(0)
                        .path("text").asText()).isEqualTo(ORIGINAL);
                assertThat(the(events, "response.completed").path("response").path("output").get(0)
                        .path("content").get(0).path("text").asText()).isEqualTo(ORIGINAL);
                assertThat(sequenceNumbers(events)).as("never going back").isSorted();
            }
        }
    }

    @Test
    void textHeldBackAsAPossiblePlaceholderGoesOutInADeltaBeforeThePartsDoneEvent() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        byte[] wire = stream("output_text", "a list: [EMAIL_", List.of("a list: [EM", "AIL_"));
        String out = new String(restore(masked, wire, 7), StandardCharsets.UTF_8);
        List<JsonNode> events = events(out.getBytes(StandardCharsets.UTF_8));
        assertThat(deltas(events, "response.output_text.delta")).isEqualTo("a list: [EMAIL_");
        int lastDelta = out.lastIndexOf("event: response.output_text.delta");
        assertThat(out.substring(lastDelta)).startsWith("event: response.output_text.delta\ndata: ");
        assertThat(lastDelta).as("released before the part's done event")
                .isLessThan(out.indexOf("event: response.output_text.done"));
        JsonNode extra = events.stream().filter(e -> e.path("delta").asText().equals("[EM" + "AIL_")).findFirst()
                .orElseThrow();
        assertThat(extra.path("item_id").asText()).isEqualTo("msg_1");
        assertThat(extra.path("content_index").asInt()).isZero();
        assertThat(extra.path("sequence_number").asInt())
                .isEqualTo(the(events, "response.output_text.done").path("sequence_number").asInt());
    }

    @Test
    void aPartWhoseDoneEventNeverCameIsFlushedBeforeTheItemsDone() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String ids = "\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0";
        String wire = "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\"," + ids
                + ",\"delta\":\"see [EM\",\"sequence_number\":1}\n\n"
                + "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,"
                + "\"item\":{\"id\":\"msg_1\"},\"sequence_number\":2}\n\n";
        String out = new String(restore(masked, wire.getBytes(StandardCharsets.UTF_8), 9), StandardCharsets.UTF_8);
        List<JsonNode> events = events(out.getBytes(StandardCharsets.UTF_8));
        assertThat(events).extracting(e -> e.path("type").asText()).containsExactly("response.output_text.delta",
                "response.output_text.delta", "response.output_item.done");
        assertThat(deltas(events, "response.output_text.delta")).isEqualTo("see [EM");
    }

    @Test
    void refusalAndFunctionCallArgumentDeltasAreRestoredPerPart() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String t = masked.text();
        int cut = t.indexOf("[EMAIL_") + 4;
        for (String kind : List.of("refusal", "function_call_arguments", "reasoning_text")) {
            byte[] wire = stream(kind, t, List.of(t.substring(0, cut), t.substring(cut)));
            List<JsonNode> events = events(restore(masked, wire, 3));
            assertThat(deltas(events, "response." + kind + ".delta")).as(kind).isEqualTo(ORIGINAL);
        }
    }

    @Test
    void anotherRequestsPlaceholderStaysAsItIs() throws IOException {
        MaskedText mine = MASKER.mask(ORIGINAL);
        MaskedText theirs = MASKER.mask("write to someone.else@example.com");
        String t = theirs.text();
        byte[] wire = stream("output_text", t, List.of(t.substring(0, 12), t.substring(12)));
        List<JsonNode> events = events(restore(mine, wire, 4));
        assertThat(deltas(events, "response.output_text.delta")).isEqualTo(t);
        assertThat(the(events, "response.output_text.done").path("text").asText()).isEqualTo(t);
    }

    private static byte[] restore(MaskedText masked, byte[] wire, int chunk) throws IOException {
        LlmProxy.Answer answer = new LlmProxy.Answer(200, Map.of("content-type", List.of("text/event-stream")),
                new SseRestorationTest.ChunkedStream(wire, chunk));
        try (InputStream restored = RestoringBody.restore(answer, WireFormat.OPENAI_RESPONSES, masked.restorer())
                .body()) {
            return restored.readAllBytes();
        }
    }

    /**
     * A Responses stream as OpenAI sends it: one message item whose part of {@code kind} streams {@code deltas},
     * then its done events repeating {@code text} in full. Output text is a content part; the others are named
     * here by the same identifiers, which is all the stage reads.
     */
    static byte[] stream(String kind, String text, List<String> deltas) throws IOException {
        String q = JSON.writeValueAsString(text);
        String part = "{\"type\":\"output_text\",\"text\":" + q + ",\"annotations\":[]}";
        String item = "{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\","
                + "\"content\":[" + part + "]}";
        String ids = "\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0";
        List<String> events = new ArrayList<>();
        events.add("{\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\"}}");
        events.add("{\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\"}}");
        for (String d : deltas) {
            events.add("{\"type\":\"response." + kind + ".delta\"," + ids + ",\"delta\":"
                    + JSON.writeValueAsString(d) + ",\"logprobs\":[]}");
        }
        String doneField = kind.equals("output_text") || kind.equals("reasoning_text") ? "text"
                : kind.equals("refusal") ? "refusal" : "arguments";
        events.add("{\"type\":\"response." + kind + ".done\"," + ids + ",\"" + doneField + "\":" + q + "}");
        events.add("{\"type\":\"response.content_part.done\"," + ids + ",\"part\":" + part + "}");
        events.add("{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":" + item + "}");
        events.add("{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\","
                + "\"output\":[" + item + "],\"usage\":{\"input_tokens\":10,\"output_tokens\":5}}}");
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < events.size(); i++) {
            String e = events.get(i);
            String data = e.substring(0, e.length() - 1) + ",\"sequence_number\":" + i + "}";
            s.append("event: ").append(JSON.readTree(e).path("type").asText()).append("\ndata: ").append(data)
                    .append("\n\n");
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String deltas(List<JsonNode> events, String type) {
        StringBuilder text = new StringBuilder();
        events.stream().filter(e -> e.path("type").asText().equals(type))
                .forEach(e -> text.append(e.path("delta").asText()));
        return text.toString();
    }

    private static JsonNode the(List<JsonNode> events, String type) {
        return events.stream().filter(e -> e.path("type").asText().equals(type)).findFirst().orElseThrow();
    }

    private static List<Integer> sequenceNumbers(List<JsonNode> events) {
        return events.stream().map(e -> e.path("sequence_number").asInt()).toList();
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
}
