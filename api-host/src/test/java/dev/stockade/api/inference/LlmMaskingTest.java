package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseOutputMessage;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.policy.model.MaskingType;
import dev.stockade.policy.model.PiiMasking;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PII masking through the {@code /llm} routes, with the official SDKs as clients and the provider double echoing the
 * text it received: the double's own record of the bytes it got holds no masked value, the caller's answers (whole
 * and streamed, Chat Completions and Responses) come back with the values restored when the policy says
 * {@code unmaskResponses}, a dead masking worker answers 503 even when the policy fails open, and a multipart
 * upload is skipped and audited.
 */
@MicronautTest(transactional = false)
class LlmMaskingTest extends MaskingPlatformTest {
    static final String EMAIL = "jane.doe@example.org";
    static final String PROMPT = "Please email " + EMAIL + ", call me at (415) 867-5309, and charge card "
            + "4539 1488 0343 6467 today.";
    /** Every spelling of the three values a backend could be sent. */
    static final List<String> VALUES = List.of(EMAIL, "867-5309", "8675309", "4539 1488 0343 6467",
            "4539148803436467");
    /** Published list price of claude-haiku-4-5 for the double's usage ($1 / $5 per million tokens). */
    static final long HAIKU_COST = ProviderDouble.INPUT + ProviderDouble.OUTPUT * 5;
    /** Published list price of gpt-4o-mini for the double's usage ($0.15 / $0.60 per million tokens). */
    static final long MINI_COST = (ProviderDouble.INPUT * 15 + ProviderDouble.OUTPUT * 60) / 100;
    private static final List<MaskingType> TYPES = List.of(MaskingType.EMAIL, MaskingType.PHONE,
            MaskingType.CREDIT_CARD);

    @Inject
    RequestMasking masking;

    @Test
    void theBackendNeverSeesAMaskedValueAndTheWholeAnswerIsRestored() {
        grant(Map.of("types", names(), "unmaskResponses", true));
        Message m = anthropic().messages().create(haiku(PROMPT).build());
        assertThat(m.content().get(0).text().orElseThrow().text()).isEqualTo(PROMPT);
        String sent = upstream.received.get(0).raw();
        assertThat(sent).contains("[EMAIL_", "[PHONE_", "[CREDIT_CARD_");
        VALUES.forEach(v -> assertThat(sent).doesNotContain(v));
        JsonNode entry = awaitAudit("success").get(0).path("details");
        assertThat(entry.path("piiMasking").path("status").asText()).isEqualTo("masked");
        assertThat(entry.path("piiMasking").path("masked").path("EMAIL").asInt()).isEqualTo(1);
        assertThat(entry.path("piiMasking").path("masked").path("PHONE").asInt()).isEqualTo(1);
        assertThat(entry.path("piiMasking").path("masked").path("CREDIT_CARD").asInt()).isEqualTo(1);
        assertThat(entry.path("piiMasking").path("truncations")).isEmpty();
        assertThat(entry.has("piiMaskingSkipped")).isFalse();
        VALUES.forEach(v -> assertThat(entry.toString()).doesNotContain(v));
    }

    @Test
    void anAnthropicStreamIsRestoredAndMeteredAtItsPrice() {
        grant(Map.of("types", names(), "unmaskResponses", true));
        StringBuilder text = new StringBuilder();
        try (StreamResponse<RawMessageStreamEvent> s = anthropic().messages().createStreaming(haiku(PROMPT).build())) {
            s.stream().forEach(e -> e.contentBlockDelta().ifPresent(d -> d.delta().text()
                    .ifPresent(t -> text.append(t.text()))));
        }
        assertThat(text).hasToString(PROMPT);
        VALUES.forEach(v -> assertThat(upstream.received.get(0).raw()).doesNotContain(v));
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(HAIKU_COST));
    }

    @Test
    void anOpenaiStreamIsRestored() {
        grant(Map.of("types", names(), "unmaskResponses", true));
        StringBuilder text = new StringBuilder();
        try (var s = openai().chat().completions().createStreaming(chat(PROMPT))) {
            s.stream().flatMap(c -> c.choices().stream()).map(ChatCompletionChunk.Choice::delta)
                    .forEach(d -> d.content().ifPresent(text::append));
        }
        assertThat(text).hasToString(PROMPT);
        String sent = upstream.received.get(0).raw();
        assertThat(sent).contains("[EMAIL_");
        VALUES.forEach(v -> assertThat(sent).doesNotContain(v));
    }

    @Test
    void aResponsesStreamIsRestoredAcrossDeltasAndInEveryEventThatRepeatsTheTextAndMeteredAtItsPrice() {
        grant(Map.of("types", names(), "unmaskResponses", true));
        StringBuilder deltas = new StringBuilder();
        List<String> wholes = new ArrayList<>();
        try (var s = openai().responses().createStreaming(responses(PROMPT))) {
            s.stream().forEach(e -> {
                e.outputTextDelta().ifPresent(d -> deltas.append(d.delta()));
                e.outputTextDone().ifPresent(d -> wholes.add(d.text()));
                e.contentPartDone().flatMap(d -> d.part().outputText()).ifPresent(t -> wholes.add(t.text()));
                e.outputItemDone().flatMap(d -> d.item().message()).ifPresent(m -> wholes.add(text(m)));
                e.completed().ifPresent(c -> c.response().output().forEach(i -> i.message()
                        .ifPresent(m -> wholes.add(text(m)))));
            });
        }
        // the double streams five characters per delta, so every placeholder it echoed was split across deltas
        assertThat(deltas).hasToString(PROMPT);
        assertThat(wholes).as("output_text.done, content_part.done, output_item.done, completed").hasSize(4)
                .containsOnly(PROMPT);
        String sent = upstream.received.get(0).raw();
        assertThat(sent).contains("[EMAIL_", "[PHONE_", "[CREDIT_CARD_");
        VALUES.forEach(v -> assertThat(sent).doesNotContain(v));
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(MINI_COST));
    }

    @Test
    void aWholeResponsesAnswerIsRestored() {
        grant(Map.of("types", names(), "unmaskResponses", true));
        Response r = openai().responses().create(responses(PROMPT));
        assertThat(text(r.output().get(0).message().orElseThrow())).isEqualTo(PROMPT);
        VALUES.forEach(v -> assertThat(upstream.received.get(0).raw()).doesNotContain(v));
    }

    @Test
    void withoutUnmaskResponsesTheCallerSeesThePlaceholders() {
        grant(Map.of("types", names()));
        ChatCompletion c = openai().chat().completions().create(chat(PROMPT));
        String answer = c.choices().get(0).message().content().orElseThrow();
        assertThat(answer).contains("[EMAIL_", "[PHONE_", "[CREDIT_CARD_");
        VALUES.forEach(v -> assertThat(answer).doesNotContain(v));
    }

    @Test
    void aDeadWorkerAnswers503EvenWhenThePolicyFailsOpenAndIsReplacedForTheNextCall() {
        grant(Map.of("types", names(), "unmaskResponses", true, "failOpen", true));
        masking.workerFor(RequestMasking.settings(new PiiMasking(TYPES, true, true))).close();
        Http.Response r = postChat(PROMPT);
        assertThat(PlatformTest.problem(r, 503)).isEqualTo("pii_masking_unavailable");
        assertThat(r.body().path("detail").asText()).contains("worker is dead");
        assertThat(upstream.received).isEmpty();
        JsonNode entry = awaitAudit("denied").get(0).path("details");
        assertThat(entry.path("piiMasking").path("status").asText()).isEqualTo("refused");
        assertThat(entry.path("piiMasking").path("failure").asText()).isEqualTo("worker-dead");
        assertThat(entry.has("piiMaskingSkipped")).isFalse();

        Http.Response next = postChat(PROMPT);
        assertThat(next.status()).as(next.raw()).isEqualTo(200);
        assertThat(next.body().path("choices").get(0).path("message").path("content").asText()).isEqualTo(PROMPT);
        VALUES.forEach(v -> assertThat(upstream.received.get(0).raw()).doesNotContain(v));
    }

    @Test
    void aMultipartUploadIsSkippedAndAudited() {
        grant(Map.of("types", names()));
        String body = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\n" + PROMPT
                + "\r\n--b--\r\n";
        Http.Response r = http.send("POST", route("openai") + "/v1/chat/completions", token,
                "multipart/form-data; boundary=b", body);
        assertThat(PlatformTest.problem(r, 400)).isEqualTo("bad_request");
        assertThat(upstream.received).isEmpty();
        JsonNode entry = awaitAudit("denied").get(0).path("details");
        assertThat(entry.path("piiMaskingSkipped").asBoolean()).isTrue();
        assertThat(entry.path("piiMasking").path("skipped").asText()).isEqualTo("multipart");
    }

    private static List<String> names() {
        return TYPES.stream().map(MaskingType::wire).toList();
    }

    static MessageCreateParams.Builder haiku(String text) {
        return MessageCreateParams.builder().model("claude-haiku-4-5").maxTokens(1024).addUserMessage(text);
    }

    static ResponseCreateParams responses(String text) {
        return ResponseCreateParams.builder().model("gpt-4o-mini").input(text).build();
    }

    private static String text(ResponseOutputMessage message) {
        StringBuilder text = new StringBuilder();
        message.content().forEach(c -> c.outputText().ifPresent(t -> text.append(t.text())));
        return text.toString();
    }

    static ChatCompletionCreateParams chat(String text) {
        return ChatCompletionCreateParams.builder().model("gpt-4o-mini").addUserMessage(text).build();
    }
}
