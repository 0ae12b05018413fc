package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.CitationCharLocation;
import com.anthropic.models.messages.CitationsConfigParam;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.DocumentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.PlainTextSource;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.TextBlock;
import com.anthropic.models.messages.ThinkingBlock;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tool calls and thinking through the {@code /llm} routes, with the official SDKs as clients and their own
 * accumulators assembling the answer. The provider double echoes the masked prompt inside a tool call's input (JSON
 * source text, streamed five characters per delta, so every placeholder is split), or as signed thinking before text
 * and a tool call. The caller's street line holds a tab, which the restored JSON must carry escaped: the SDKs'
 * accumulators parse the assembled input and would fail on a raw one. Signed thinking comes back with its
 * placeholders and goes back to the backend as it was sent. A citation of the caller's document comes back restored
 * and goes back masked with the document's placeholders. The backend never sees a value, and streams are still
 * metered at their price.
 */
@MicronautTest(transactional = false)
class ToolCallMaskingTest extends MaskingPlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The shared prompt plus a street line whose tab is a control character inside JSON. */
    static final String PROMPT = LlmMaskingTest.PROMPT + " Ship it to 221\tBaker Street.";

    @Test
    void anAnthropicToolInputStreamedInPiecesAssemblesToTheCallersValues() throws IOException {
        grantWithAddresses();
        upstream.reply = ToolAnswers.Reply.TOOL_USE;
        MessageAccumulator accumulator = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = anthropic().messages()
                .createStreaming(LlmMaskingTest.haiku(PROMPT).build())) {
            s.stream().forEach(accumulator::accumulate);
        }
        ToolUseBlock call = accumulator.message().content().get(0).toolUse().orElseThrow();
        assertThat(call.name()).isEqualTo(ToolAnswers.TOOL);
        assertThat(call._input().convert(JsonNode.class).path("note").asText()).isEqualTo(PROMPT);
        sentMasked();
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(LlmMaskingTest.HAIKU_COST));
    }

    @Test
    void aStreamedThinkingKeepsItsPlaceholdersAndGoesBackToTheBackendAsItSentIt() {
        grantWithAddresses();
        upstream.reply = ToolAnswers.Reply.THINKING;
        MessageAccumulator accumulator = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = anthropic().messages()
                .createStreaming(LlmMaskingTest.haiku(PROMPT).build())) {
            s.stream().forEach(accumulator::accumulate);
        }
        toolLoopKeepsTheThinkingAsSent(accumulator.message());
    }

    @Test
    void aWholeThinkingKeepsItsPlaceholdersAndGoesBackToTheBackendAsItSentIt() {
        grantWithAddresses();
        upstream.reply = ToolAnswers.Reply.THINKING;
        toolLoopKeepsTheThinkingAsSent(anthropic().messages().create(LlmMaskingTest.haiku(PROMPT).build()));
    }

    @Test
    void aWholeAnthropicToolInputIsRestored() {
        grantWithAddresses();
        upstream.reply = ToolAnswers.Reply.TOOL_USE;
        Message tool = anthropic().messages().create(LlmMaskingTest.haiku(PROMPT).build());
        ToolUseBlock call = tool.content().get(0).toolUse().orElseThrow();
        assertThat(call._input().convert(JsonNode.class).path("note").asText()).isEqualTo(PROMPT);
        sentMasked();
    }

    @Test
    void chatToolCallArgumentsStreamedInPiecesAssembleToTheCallersValues() throws IOException {
        grantWithAddresses();
        upstream.reply = ToolAnswers.Reply.TOOL_USE;
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (var s = openai().chat().completions().createStreaming(LlmMaskingTest.chat(PROMPT))) {
            s.stream().forEach(accumulator::accumulate);
        }
        ChatCompletion whole = accumulator.chatCompletion();
        assertThat(whole.choices().get(0).finishReason().asString()).isEqualTo("tool_calls");
        assertThat(note(whole.choices().get(0).message().toolCalls().orElseThrow())).isEqualTo(PROMPT);
        sentMasked();
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(LlmMaskingTest.MINI_COST));
    }

    @Test
    void aWholeChatAnswersArgumentsStayJsonWithTheCallersValues() throws IOException {
        grantWithAddresses();
        upstream.reply = ToolAnswers.Reply.TOOL_USE;
        ChatCompletion c = openai().chat().completions().create(LlmMaskingTest.chat(PROMPT));
        assertThat(note(c.choices().get(0).message().toolCalls().orElseThrow())).isEqualTo(PROMPT);
        sentMasked();
    }

    /**
     * {@code first}, the answer to the prompt, has the double's thinking with its placeholders and the caller's values
     * in its text and tool input; sent back with a tool result, as a tool-use loop does, the thinking reaches the
     * double exactly as the double wrote it, signature and placeholders alike, and no value reaches it at all.
     */
    private void toolLoopKeepsTheThinkingAsSent(Message first) {
        String thought = EchoText.lastMessage(upstream.received.get(0).body().path("messages"));
        assertThat(thought).as("what the double thought: the masked prompt").contains("[EMAIL_", "[ADDRESS_");
        ThinkingBlock thinking = first.content().get(0).thinking().orElseThrow();
        assertThat(thinking.thinking()).isEqualTo(thought);
        assertThat(thinking.signature()).isEqualTo(ToolAnswers.SIGNATURE);
        assertThat(first.content().get(1).text().orElseThrow().text()).isEqualTo(PROMPT);
        ToolUseBlock call = first.content().get(2).toolUse().orElseThrow();
        assertThat(call._input().convert(JsonNode.class).path("note").asText()).isEqualTo(PROMPT);

        anthropic().messages().create(LlmMaskingTest.haiku(PROMPT).addMessage(first)
                .addUserMessageOfContentBlockParams(List.of(ContentBlockParam.ofToolResult(ToolResultBlockParam
                        .builder().toolUseId(call.id()).content("sent").build()))).build());
        sentMasked();
        ProviderDouble.Received next = upstream.received.get(1);
        JsonNode sentBack = next.body().at("/messages/1/content/0");
        assertThat(sentBack.path("type").asText()).isEqualTo("thinking");
        assertThat(sentBack.path("thinking").asText()).isEqualTo(thought);
        assertThat(next.raw()).as("the signature, byte for byte").contains("\"signature\":\"" + ToolAnswers.SIGNATURE
                + "\"");
        assertThat(next.body().at("/messages/1/content/1/text").asText()).contains("[EMAIL_");
    }

    @Test
    void aCitationComesBackRestoredAndGoesBackMaskedLikeItsDocument() {
        grantWithAddresses();
        upstream.reply = ToolAnswers.Reply.CITED;
        String title = "Shipping notes for " + LlmMaskingTest.EMAIL;
        MessageCreateParams.Builder ask = MessageCreateParams.builder().model("claude-haiku-4-5").maxTokens(1024)
                .addUserMessageOfContentBlockParams(List.of(ContentBlockParam.ofDocument(DocumentBlockParam.builder()
                        .source(PlainTextSource.builder().data(PROMPT).build()).title(title)
                        .citations(CitationsConfigParam.builder().enabled(true).build()).build()),
                        ContentBlockParam.ofText("Where does it go?")));
        Message first = anthropic().messages().create(ask.build());
        TextBlock cited = first.content().get(0).text().orElseThrow();
        CitationCharLocation citation = cited.citations().orElseThrow().get(0).charLocation().orElseThrow();
        assertThat(citation.citedText()).isEqualTo(PROMPT);
        assertThat(citation.documentTitle()).contains(title);

        // Message.toParam() keeps the citations: the caller's values would go back with them
        anthropic().messages().create(ask.addMessage(first).addUserMessage("Thanks").build());
        sentMasked();
        JsonNode next = upstream.received.get(1).body();
        String document = next.at("/messages/0/content/0/source/data").asText();
        JsonNode back = next.at("/messages/1/content/0/citations/0");
        assertThat(back.path("cited_text").asText()).as("the masked document's span at the backend's indexes")
                .isEqualTo(document.substring(back.path("start_char_index").asInt(),
                        back.path("end_char_index").asInt()));
        assertThat(back.path("document_title").asText()).contains("[EMAIL_")
                .isEqualTo(next.at("/messages/0/content/0/title").asText());
    }

    /** The {@code note} of the one function call, read from its arguments' JSON. */
    private static String note(List<ChatCompletionMessageToolCall> calls) throws IOException {
        assertThat(calls).hasSize(1);
        String arguments = calls.get(0).function().orElseThrow().function().arguments();
        return JSON.readTree(arguments).path("note").asText();
    }

    private void grantWithAddresses() {
        grant(Map.of("types", List.of("EMAIL", "PHONE", "CREDIT_CARD", "ADDRESS"), "unmaskResponses", true));
    }

    /** Every request reached the backend with placeholders and none of the values. */
    private void sentMasked() {
        assertThat(upstream.received).isNotEmpty();
        upstream.received.forEach(r -> {
            assertThat(r.raw()).contains("[EMAIL_", "[ADDRESS_").doesNotContain("Baker");
            LlmMaskingTest.VALUES.forEach(v -> assertThat(r.raw()).doesNotContain(v));
        });
    }
}
