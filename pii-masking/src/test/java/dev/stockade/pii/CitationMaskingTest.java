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
 * Citations across two turns, with the real masker and restorer: the backend cites the masked document it was sent,
 * the answer's citations come back to the caller restored, and when the client sends the assistant turn back (as
 * anthropic-java's {@code Message.toParam()} does) the next request carries the citations masked with the
 * document's own placeholders, so the quoted text is still the document's span at the backend's indexes.
 */
class CitationMaskingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MAIL = "jane.doe@example.org";
    private static final String SENTENCE = "Write to " + MAIL + " for access.";
    private static final String DOCUMENT = "Team roster. " + SENTENCE + " Office hours are nine to five.";
    private static final String TITLE = "Roster kept by " + MAIL;
    private static final PiiMasker MASKER = PiiMasker.create(MaskingSettings.fromPolicy(List.of("EMAIL"), true,
            false));

    @Test
    void anthropicCitationsAreRestoredAndGoBackWithTheDocumentsPlaceholders() throws Exception {
        for (WireFormat format : List.of(WireFormat.ANTHROPIC_MESSAGES, WireFormat.BEDROCK_INVOKE_ANTHROPIC)) {
            ObjectNode request = JSON.createObjectNode().put("max_tokens", 1024);
            ArrayNode messages = request.putArray("messages");
            ArrayNode question = messages.addObject().put("role", "user").putArray("content");
            ObjectNode document = question.addObject().put("type", "document").put("title", TITLE);
            document.putObject("source").put("type", "text").put("media_type", "text/plain").put("data", DOCUMENT);
            document.putObject("citations").put("enabled", true);
            question.addObject().put("type", "text").put("text", "Whom do I write to?");

            MaskedBody first = MASKER.mask(bytes(request), format);
            JsonNode sentDocument = JSON.readTree(first.body()).at("/messages/0/content/0");
            String masked = sentDocument.at("/source/data").asText();
            assertThat(masked).as("%s: the document is masked", format).contains("[EMAIL_").doesNotContain(MAIL);
            // the backend cites the second sentence of what it was sent, as a char_location over the masked text
            int start = masked.indexOf("Write to");
            int end = masked.indexOf(" Office");
            ObjectNode answer = JSON.createObjectNode();
            ObjectNode cited = answer.putArray("content").addObject().put("type", "text")
                    .put("text", masked.substring(start, end));
            cited.putArray("citations").addObject().put("type", "char_location")
                    .put("cited_text", masked.substring(start, end)).put("document_index", 0)
                    .put("document_title", sentDocument.path("title").asText()).put("start_char_index", start)
                    .put("end_char_index", end);

            JsonNode restored = JSON.readTree(first.restorer().restoreJson(bytes(answer), format));
            JsonNode citation = restored.at("/content/0/citations/0");
            assertThat(citation.path("cited_text").asText()).as("a user reads it").isEqualTo(SENTENCE);
            assertThat(citation.path("document_title").asText()).isEqualTo(TITLE);

            messages.addObject().put("role", "assistant").set("content", restored.get("content"));
            messages.addObject().put("role", "user").put("content", "Thanks");
            MaskedBody next = MASKER.mask(bytes(request), format);
            assertThat(new String(next.body(), StandardCharsets.UTF_8)).doesNotContain(MAIL);
            JsonNode sent = JSON.readTree(next.body());
            String document2 = sent.at("/messages/0/content/0/source/data").asText();
            JsonNode back = sent.at("/messages/1/content/0/citations/0");
            assertThat(back.path("cited_text").asText()).contains("[EMAIL_")
                    .as("the quote is the masked document's span at the backend's indexes")
                    .isEqualTo(document2.substring(back.path("start_char_index").asInt(),
                            back.path("end_char_index").asInt()));
            assertThat(back.path("document_title").asText()).contains("[EMAIL_")
                    .isEqualTo(sent.at("/messages/0/content/0/title").asText());
            assertThat(back.path("start_char_index").asInt()).isEqualTo(start);
            assertThat(back.path("end_char_index").asInt()).isEqualTo(end);
            assertThat(sent.at("/messages/1/content/0/text").asText()).isEqualTo(back.path("cited_text").asText());
        }
    }

    @Test
    void converseCitationsAreRestoredAndGoBackWithTheDocumentsPlaceholders() throws Exception {
        ObjectNode request = JSON.createObjectNode();
        ArrayNode messages = request.putArray("messages");
        ArrayNode question = messages.addObject().put("role", "user").putArray("content");
        ObjectNode document = question.addObject().putObject("document").put("format", "txt").put("name", "roster");
        document.putObject("source").put("text", DOCUMENT);
        document.putObject("citations").put("enabled", true);
        question.addObject().put("text", "Whom do I write to?");

        MaskedBody first = MASKER.mask(bytes(request), WireFormat.BEDROCK_CONVERSE);
        String masked = JSON.readTree(first.body()).at("/messages/0/content/0/document/source/text").asText();
        assertThat(masked).contains("[EMAIL_").doesNotContain(MAIL);
        int start = masked.indexOf("Write to");
        int end = masked.indexOf(" Office");
        String quote = masked.substring(start, end);
        ObjectNode answer = JSON.createObjectNode();
        ObjectNode block = answer.putObject("output").putObject("message").put("role", "assistant")
                .putArray("content").addObject().putObject("citationsContent");
        block.putArray("content").addObject().put("text", quote);
        ObjectNode citation = block.putArray("citations").addObject().put("title", "roster");
        citation.putArray("sourceContent").addObject().put("text", quote);
        citation.putObject("location").putObject("documentChar").put("documentIndex", 0).put("start", start)
                .put("end", end);

        JsonNode restored = JSON.readTree(first.restorer().restoreJson(bytes(answer), WireFormat.BEDROCK_CONVERSE));
        JsonNode cited = restored.at("/output/message/content/0/citationsContent");
        assertThat(cited.at("/content/0/text").asText()).isEqualTo(SENTENCE);
        assertThat(cited.at("/citations/0/sourceContent/0/text").asText()).isEqualTo(SENTENCE);

        messages.add(restored.at("/output/message"));
        messages.addObject().put("role", "user").putArray("content").addObject().put("text", "Thanks");
        MaskedBody next = MASKER.mask(bytes(request), WireFormat.BEDROCK_CONVERSE);
        assertThat(new String(next.body(), StandardCharsets.UTF_8)).doesNotContain(MAIL);
        JsonNode sent = JSON.readTree(next.body());
        String document2 = sent.at("/messages/0/content/0/document/source/text").asText();
        JsonNode back = sent.at("/messages/1/content/0/citationsContent");
        assertThat(back.at("/citations/0/sourceContent/0/text").asText()).contains("[EMAIL_")
                .isEqualTo(document2.substring(start, end));
        assertThat(back.at("/content/0/text").asText()).isEqualTo(document2.substring(start, end));
        assertThat(back.at("/citations/0/location")).isEqualTo(citation.get("location"));
    }

    private static byte[] bytes(JsonNode node) throws IOException {
        return JSON.writeValueAsBytes(node);
    }
}
