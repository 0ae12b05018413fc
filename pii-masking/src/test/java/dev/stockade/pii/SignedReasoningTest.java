package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Signed reasoning across a tool-use loop, with the real masker and restorer: an answer's signed thinking (Anthropic)
 * or reasoning (Converse) keeps its placeholders while the text beside it gets the caller's value back; the client
 * then sends the assistant turn back, and the masked next request carries the signed text exactly as the backend
 * wrote it and no value anywhere. A Responses reasoning summary, signed by nothing, is restored and masked again.
 */
class SignedReasoningTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MAIL = "jane.doe@example.org";
    private static final String PROMPT = "Write to " + MAIL + " today";
    private static final String SIGNATURE = "EqQBCkYIBxgCKkB+/sig==";
    private static final PiiMasker MASKER = PiiMasker.create(MaskingSettings.fromPolicy(List.of("EMAIL"), true,
            false));

    @Test
    void anthropicThinkingKeepsItsPlaceholdersAndGoesBackAsTheBackendWroteIt() throws Exception {
        for (WireFormat format : List.of(WireFormat.ANTHROPIC_MESSAGES, WireFormat.BEDROCK_INVOKE_ANTHROPIC)) {
            ObjectNode request = anthropicRequest();
            MaskedBody first = MASKER.mask(bytes(request), format);
            String masked = JSON.readTree(first.body()).at("/messages/0/content").asText();
            assertThat(masked).contains("[EMAIL_").doesNotContain(MAIL);
            ObjectNode answer = JSON.createObjectNode();
            ArrayNode content = answer.putArray("content");
            content.addObject().put("type", "thinking").put("thinking", masked).put("signature", SIGNATURE);
            content.addObject().put("type", "redacted_thinking").put("data", "b3BhcXVl");
            content.addObject().put("type", "text").put("text", masked);
            ObjectNode use = content.addObject().put("type", "tool_use").put("id", "toolu_1").put("name", "send");
            use.putObject("input").put("type", "thinking").put("thinking", masked);

            JsonNode restored = JSON.readTree(first.restorer().restoreJson(bytes(answer), format));
            assertThat(restored.at("/content/0")).as("%s: signed, so as sent", format).isEqualTo(content.get(0));
            assertThat(restored.at("/content/1")).isEqualTo(content.get(1));
            assertThat(restored.at("/content/2/text").asText()).isEqualTo(PROMPT);
            assertThat(restored.at("/content/3/input/thinking").asText())
                    .as("only content blocks are signed, not a tool input that looks like one").isEqualTo(PROMPT);

            ArrayNode messages = (ArrayNode) request.get("messages");
            messages.addObject().put("role", "assistant").set("content", restored.get("content"));
            messages.addObject().put("role", "user").putArray("content").addObject()
                    .put("type", "tool_result").put("tool_use_id", "toolu_1").put("content", "sent");
            MaskedBody next = MASKER.mask(bytes(request), format);
            JsonNode turn = JSON.readTree(next.body()).at("/messages/1/content");
            assertThat(turn.get(0)).as("the thinking goes back byte for byte").isEqualTo(content.get(0));
            assertThat(turn.at("/2/text").asText()).contains("[EMAIL_").doesNotContain(MAIL);
            assertThat(new String(next.body(), StandardCharsets.UTF_8)).doesNotContain(MAIL);
        }
    }

    @Test
    void converseReasoningKeepsItsPlaceholdersAndGoesBackAsTheBackendWroteIt() throws Exception {
        ObjectNode request = JSON.createObjectNode();
        request.putArray("messages").addObject().put("role", "user").putArray("content").addObject()
                .put("text", PROMPT);
        MaskedBody first = MASKER.mask(bytes(request), WireFormat.BEDROCK_CONVERSE);
        String masked = JSON.readTree(first.body()).at("/messages/0/content/0/text").asText();
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode content = answer.putObject("output").putObject("message").put("role", "assistant")
                .putArray("content");
        content.addObject().putObject("reasoningContent").putObject("reasoningText").put("text", masked)
                .put("signature", SIGNATURE);
        content.addObject().put("text", masked);

        JsonNode restored = JSON.readTree(first.restorer().restoreJson(bytes(answer), WireFormat.BEDROCK_CONVERSE));
        JsonNode blocks = restored.at("/output/message/content");
        assertThat(blocks.get(0)).isEqualTo(content.get(0));
        assertThat(blocks.at("/1/text").asText()).isEqualTo(PROMPT);

        ((ArrayNode) request.get("messages")).add(restored.at("/output/message"));
        MaskedBody next = MASKER.mask(bytes(request), WireFormat.BEDROCK_CONVERSE);
        assertThat(JSON.readTree(next.body()).at("/messages/1/content/0")).isEqualTo(content.get(0));
        assertThat(new String(next.body(), StandardCharsets.UTF_8)).contains("[EMAIL_").doesNotContain(MAIL);
    }

    @Test
    void aResponsesReasoningSummaryIsRestoredAndMaskedAgainOnTheNextTurn() throws Exception {
        ObjectNode request = JSON.createObjectNode().put("model", "o4-mini");
        request.putArray("input").addObject().put("role", "user").put("content", PROMPT);
        MaskedBody first = MASKER.mask(bytes(request), WireFormat.OPENAI_RESPONSES);
        String masked = JSON.readTree(first.body()).at("/input/0/content").asText();
        ObjectNode item = JSON.createObjectNode().put("type", "reasoning").put("id", "rs_1")
                .put("encrypted_content", "gAAAAABopaque");
        item.putArray("summary").addObject().put("type", "summary_text").put("text", masked);
        ObjectNode answer = JSON.createObjectNode();
        answer.putArray("output").add(item);

        JsonNode restored = JSON.readTree(first.restorer().restoreJson(bytes(answer), WireFormat.OPENAI_RESPONSES));
        assertThat(restored.at("/output/0/summary/0/text").asText()).isEqualTo(PROMPT);

        ((ArrayNode) request.get("input")).add(restored.at("/output/0"));
        MaskedBody next = MASKER.mask(bytes(request), WireFormat.OPENAI_RESPONSES);
        JsonNode sent = JSON.readTree(next.body()).at("/input/1");
        assertThat(sent.at("/summary/0/text").asText()).contains("[EMAIL_").doesNotContain(MAIL);
        assertThat(sent.path("encrypted_content").asText()).isEqualTo("gAAAAABopaque");
        assertThat(new String(next.body(), StandardCharsets.UTF_8)).doesNotContain(MAIL);
    }

    private static ObjectNode anthropicRequest() {
        ObjectNode request = JSON.createObjectNode().put("model", "claude-haiku-4-5").put("max_tokens", 1024);
        request.putArray("messages").addObject().put("role", "user").put("content", PROMPT);
        return request;
    }

    private static byte[] bytes(JsonNode node) throws IOException {
        return JSON.writeValueAsBytes(node);
    }
}
