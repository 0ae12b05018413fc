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
 * The restoring stage on tool inputs and thinking in server-sent events, with a real masker's placeholders. A tool
 * input streams as fragments of JSON source text, so a restored value goes in JSON-escaped: the caller's address
 * holds a tab, which raw inside a JSON string would make the assembled input unreadable. Signed thinking passes as the
 * backend sent it, placeholders included. The expected values are the caller's own, never one the stage produced.
 */
class ToolInputRestorationTest {
    static final ObjectMapper JSON = new ObjectMapper();
    /** A tab in a street line is a control character: JSON must carry it escaped. */
    static final String ORIGINAL = "Ship to 221\tBaker Street for jane.doe@example.org";
    static final PiiMasker MASKER = PiiMasker.create(MaskingSettings.fromPolicy(List.of("EMAIL", "ADDRESS"), true,
            false));

    /** The tool input a model writes from the masked prompt, as JSON source text. */
    static String toolInput(MaskedText masked) throws IOException {
        return "{\"note\": " + JSON.writeValueAsString(masked.text()) + ", \"copies\": 2}";
    }

    @Test
    void anAnthropicToolInputSplitAnywhereAssemblesToJsonWithTheOriginalValue() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        assertThat(masked.text()).contains("[ADDRESS_", "[EMAIL_").doesNotContain("Baker", "jane.doe");
        String input = toolInput(masked);
        for (int split = 1; split < input.length(); split++) {
            byte[] wire = anthropicStream("tool_use", "input_json_delta", "partial_json",
                    List.of(input.substring(0, split), input.substring(split)));
            for (int chunk : new int[] {1, 7, 64, wire.length}) {
                List<JsonNode> events = events(restore(WireFormat.ANTHROPIC_MESSAGES, masked, wire, chunk));
                String assembled = deltas(events, "partial_json");
                assertThat(JSON.readTree(assembled).path("note").asText()).as("split %d chunk %d", split, chunk)
                        .isEqualTo(ORIGINAL);
                assertThat(events).as("every delta keeps its kind").filteredOn(e -> e.has("delta"))
                        .allSatisfy(e -> assertThat(e.path("delta").path("type").asText())
                                .isEqualTo("input_json_delta"));
            }
        }
    }

    @Test
    void thinkingDeltasPassAsTheBackendSentThemWhileTheTextAfterThemIsRestored() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String t = masked.text();
        int cut = t.indexOf("[EMAIL_") + 3;
        String thinking = anthropicBlock(0, "thinking", "thinking_delta", "thinking",
                List.of(t.substring(0, cut), t.substring(cut), " and [ADDR"));
        String wire = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n" + thinking
                + anthropicBlock(1, "text", "text_delta", "text", List.of(t.substring(0, cut), t.substring(cut)))
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        for (int chunk : new int[] {1, 5, 64, wire.length()}) {
            String out = new String(restore(WireFormat.ANTHROPIC_MESSAGES, masked,
                    wire.getBytes(StandardCharsets.UTF_8), chunk), StandardCharsets.UTF_8);
            assertThat(out).as("chunk %d: the signed block, byte for byte", chunk).startsWith(
                    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n" + thinking);
            List<JsonNode> events = events(out.getBytes(StandardCharsets.UTF_8));
            assertThat(deltas(events, "thinking")).isEqualTo(t + " and [ADDR").doesNotContain("jane.doe");
            assertThat(deltas(events, "text")).isEqualTo(ORIGINAL);
        }
    }

    @Test
    void aCitationBetweenTextDeltasDoesNotEndTheBlocksText() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String t = masked.text();
        int cut = t.indexOf("[EMAIL_") + 4;
        String citation = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
                + "{\"type\":\"citations_delta\",\"citation\":{\"type\":\"char_location\",\"cited_text\":\"x\"}}}\n\n";
        String wire = new String(anthropicStream("text", "text_delta", "text", List.of(t.substring(0, cut),
                t.substring(cut))), StandardCharsets.UTF_8);
        int second = wire.indexOf("event: content_block_delta", wire.indexOf("event: content_block_delta") + 1);
        wire = wire.substring(0, second) + citation + wire.substring(second);
        String out = new String(restore(WireFormat.ANTHROPIC_MESSAGES, masked, wire.getBytes(StandardCharsets.UTF_8),
                8), StandardCharsets.UTF_8);
        assertThat(deltas(events(out.getBytes(StandardCharsets.UTF_8)), "text")).isEqualTo(ORIGINAL);
        assertThat(out).as("no extra delta: the placeholder was restored across the citation")
                .doesNotContain("[EM");
    }

    @Test
    void chatToolCallArgumentsSplitAnywhereAssembleToJsonWithTheOriginalValue() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String input = toolInput(masked);
        for (int split = 1; split < input.length(); split++) {
            byte[] wire = chatToolStream(List.of(input.substring(0, split), input.substring(split)));
            List<JsonNode> chunks = events(restore(WireFormat.OPENAI_CHAT, masked, wire, 9));
            StringBuilder arguments = new StringBuilder();
            chunks.forEach(c -> c.path("choices").forEach(choice -> choice.path("delta").path("tool_calls")
                    .forEach(call -> {
                        assertThat(call.path("index").asInt()).isEqualTo(1);
                        arguments.append(call.path("function").path("arguments").asText(""));
                    })));
            assertThat(JSON.readTree(arguments.toString()).path("note").asText()).as("split %d", split)
                    .isEqualTo(ORIGINAL);
        }
    }

    @Test
    void chatArgumentsHeldAtTheEndGoInTheFinishingChunksToolCall() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        List<JsonNode> chunks = events(restore(WireFormat.OPENAI_CHAT, masked,
                chatToolStream(List.of("{\"note\": \"a [EM", "AIL_")), 4));
        JsonNode finishing = chunks.get(chunks.size() - 1).path("choices").get(0);
        assertThat(finishing.path("finish_reason").asText()).isEqualTo("tool_calls");
        JsonNode call = finishing.path("delta").path("tool_calls").get(0);
        assertThat(call.path("index").asInt()).isEqualTo(1);
        assertThat(call.path("function").path("arguments").asText()).isEqualTo("[EMAIL_");
    }

    @Test
    void wholeAnswersKeepToolArgumentsValidJsonWithTheOriginalValues() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String input = toolInput(masked);
        String chat = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":"
                + "[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"ship\",\"arguments\":"
                + JSON.writeValueAsString(input) + "}}]},\"finish_reason\":\"tool_calls\"}]}";
        JsonNode call = whole(masked, chat, WireFormat.OPENAI_CHAT).at("/choices/0/message/tool_calls/0");
        assertThat(JSON.readTree(call.path("function").path("arguments").asText()).path("note").asText())
                .isEqualTo(ORIGINAL);
        String thinking = "{\"type\":\"thinking\",\"thinking\":" + JSON.writeValueAsString(masked.text())
                + ",\"signature\":\"c2ln\"}";
        String anthropic = "{\"content\":[" + thinking + ",{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"ship\","
                + "\"input\":" + input + "}]}";
        for (WireFormat format : List.of(WireFormat.ANTHROPIC_MESSAGES, WireFormat.BEDROCK_INVOKE)) {
            JsonNode content = whole(masked, anthropic, format).path("content");
            assertThat(content.get(0)).as("%s: signed thinking as sent", format).isEqualTo(JSON.readTree(thinking));
            assertThat(content.get(1).path("input").path("note").asText()).isEqualTo(ORIGINAL);
        }
        String reasoning = "{\"reasoningContent\":{\"reasoningText\":{\"text\":"
                + JSON.writeValueAsString(masked.text()) + ",\"signature\":\"c2ln\"}}}";
        String converse = "{\"output\":{\"message\":{\"content\":[" + reasoning + ",{\"toolUse\":{\"toolUseId\":\"t\","
                + "\"name\":\"ship\",\"input\":" + input + "}}]}}}";
        JsonNode blocks = whole(masked, converse, WireFormat.BEDROCK_CONVERSE).at("/output/message/content");
        assertThat(blocks.get(0)).as("signed reasoning as sent").isEqualTo(JSON.readTree(reasoning));
        assertThat(blocks.get(1).at("/toolUse/input/note").asText()).isEqualTo(ORIGINAL);
    }

    @Test
    void responsesFunctionCallArgumentsAreEscapedInTheirDeltasAndTheirDoneEvent() throws IOException {
        MaskedText masked = MASKER.mask(ORIGINAL);
        String input = toolInput(masked);
        int cut = input.indexOf("[ADDRESS_") + 5;
        byte[] wire = ResponsesRestorationTest.stream("function_call_arguments", input,
                List.of(input.substring(0, cut), input.substring(cut)));
        List<JsonNode> events = events(restore(WireFormat.OPENAI_RESPONSES, masked, wire, 6));
        StringBuilder deltas = new StringBuilder();
        events.stream().filter(e -> e.path("type").asText().equals("response.function_call_arguments.delta"))
                .forEach(e -> deltas.append(e.path("delta").asText()));
        assertThat(JSON.readTree(deltas.toString()).path("note").asText()).isEqualTo(ORIGINAL);
        JsonNode done = events.stream().filter(e -> e.path("type").asText()
                .equals("response.function_call_arguments.done")).findFirst().orElseThrow();
        assertThat(JSON.readTree(done.path("arguments").asText()).path("note").asText()).isEqualTo(ORIGINAL);
    }

    private static JsonNode whole(MaskedText masked, String body, WireFormat format) throws IOException {
        RestoringBody.WholeJson stage = new RestoringBody.WholeJson(masked.restorer(), RequestMasking.format(format));
        assertThat(stage.push(body.getBytes(StandardCharsets.UTF_8))).isEmpty();
        return JSON.readTree(stage.finish());
    }

    static byte[] restore(WireFormat format, MaskedText masked, byte[] wire, int chunk) throws IOException {
        LlmProxy.Answer answer = new LlmProxy.Answer(200, Map.of("Content-Type", List.of("text/event-stream")),
                new SseRestorationTest.ChunkedStream(wire, chunk));
        try (InputStream restored = RestoringBody.restore(answer, format, masked.restorer()).body()) {
            return restored.readAllBytes();
        }
    }

    /**
     * An Anthropic stream with one block (index 1) of {@code blockType} streaming {@code pieces} in deltas of
     * {@code deltaType}; a thinking block ends with its signature, as Anthropic sends it.
     */
    static byte[] anthropicStream(String blockType, String deltaType, String field, List<String> pieces)
            throws IOException {
        return ("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n"
                + anthropicBlock(1, blockType, deltaType, field, pieces)
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The events of one content block at {@code index}: its start, its deltas (and signature), its stop. */
    static String anthropicBlock(int index, String blockType, String deltaType, String field,
                                         List<String> pieces) throws IOException {
        String block = switch (blockType) {
            case "tool_use" -> "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"ship\",\"input\":{}}";
            case "thinking" -> "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}";
            default -> "{\"type\":\"text\",\"text\":\"\"}";
        };
        String delta = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":" + index
                + ",\"delta\":";
        StringBuilder s = new StringBuilder("event: content_block_start\ndata: {\"type\":\"content_block_start\",")
                .append("\"index\":").append(index).append(",\"content_block\":").append(block).append("}\n\n");
        for (String p : pieces) {
            s.append(delta).append("{\"type\":\"").append(deltaType).append("\",\"").append(field).append("\":")
                    .append(JSON.writeValueAsString(p)).append("}}\n\n");
        }
        if (blockType.equals("thinking")) {
            s.append(delta).append("{\"type\":\"signature_delta\",\"signature\":\"c2ln\"}}\n\n");
        }
        return s.append("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":")
                .append(index).append("}\n\n").toString();
    }

    /** A Chat Completions stream calling one tool (index 1) with {@code pieces} as its arguments' fragments. */
    private static byte[] chatToolStream(List<String> pieces) throws IOException {
        StringBuilder s = new StringBuilder("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"role\":")
                .append("\"assistant\",\"tool_calls\":[{\"index\":1,\"id\":\"call_1\",\"type\":\"function\",")
                .append("\"function\":{\"name\":\"ship\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n");
        for (String p : pieces) {
            s.append("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,")
                    .append("\"function\":{\"arguments\":").append(JSON.writeValueAsString(p))
                    .append("}}]},\"finish_reason\":null}]}\n\n");
        }
        s.append("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n");
        s.append("data: [DONE]\n\n");
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The concatenated {@code field} of every Anthropic delta that has one. */
    private static String deltas(List<JsonNode> events, String field) {
        StringBuilder text = new StringBuilder();
        events.forEach(e -> text.append(e.path("delta").path(field).asText("")));
        return text.toString();
    }

    static List<JsonNode> events(byte[] stream) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : new String(stream, StandardCharsets.UTF_8).split("\r?\n")) {
            if (line.startsWith("data: {")) {
                out.add(JSON.readTree(line.substring(6)));
            }
        }
        return out;
    }
}
