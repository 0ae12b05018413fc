package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider doubles are faithful: the official SDKs (anthropic-java 3.12.0, openai-java 4.101.0), as
 * clients of the doubles, parse their streams into the same text, tool calls and usage.
 */
class SdkFidelityTest {
    ProviderDouble provider;

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
    }

    @AfterEach
    void stop() {
        provider.close();
    }

    @Test
    void anthropicSdkAccumulatesTheDoublesMessagesStream() {
        provider.enqueue(ProviderDouble.Reply.tool("Looking it up.", "memory_search", "{\"query\":\"tea\"}")
                .withInputTokens(1234));
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(provider.base() + "/anthropic")
                .apiKey("test-key").maxRetries(0).build();
        MessageCreateParams params = MessageCreateParams.builder().model("claude-opus-5").maxTokens(100)
                .addUserMessage("What does Ada drink?").build();
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(params)) {
            s.stream().forEach(acc::accumulate);
        }
        Message m = acc.message();
        assertThat(m.content()).hasSize(2);
        assertThat(m.content().get(0).text().orElseThrow().text()).isEqualTo("Looking it up.");
        var tool = m.content().get(1).toolUse().orElseThrow();
        assertThat(tool.name()).isEqualTo("memory_search");
        assertThat(tool._input().toString()).contains("tea");
        assertThat(m.usage().inputTokens()).isEqualTo(1234);
        assertThat(m.usage().outputTokens()).isEqualTo(42);
        assertThat(m.stopReason().orElseThrow().asString()).isEqualTo("tool_use");
        assertThat(provider.calls().get(0).path()).isEqualTo("/anthropic/v1/messages");
    }

    @Test
    void openAiSdkReadsTheDoublesResponsesStream() {
        provider.enqueue(new ProviderDouble.Reply(List.of(new Object[] {"text", "Tea."},
                new Object[] {"tool", "memory_write", "{\"content\":\"tea\"}"}), 200, false, 77));
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(provider.base() + "/v1").apiKey("test-key")
                .maxRetries(0).build();
        ResponseCreateParams params = ResponseCreateParams.builder().model("gpt-5.6-sol").input("hi").build();
        StringBuilder text = new StringBuilder();
        List<String> calls = new ArrayList<>();
        long[] usage = {-1};
        try (var s = client.responses().createStreaming(params)) {
            s.stream().forEach((ResponseStreamEvent e) -> {
                e.outputTextDelta().ifPresent(d -> text.append(d.delta()));
                e.outputItemDone().flatMap(d -> d.item().functionCall())
                        .ifPresent(f -> calls.add(f.name() + " " + f.arguments()));
                e.completed().ifPresent(c -> usage[0] = c.response().usage().orElseThrow().inputTokens());
            });
        }
        assertThat(text.toString()).isEqualTo("Tea.");
        assertThat(calls).containsExactly("memory_write {\"content\":\"tea\"}");
        assertThat(usage[0]).isEqualTo(77);
    }

    @Test
    void openAiSdkReadsTheDoublesEmbeddings() {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(provider.base() + "/v1").apiKey("test-key")
                .maxRetries(0).build();
        CreateEmbeddingResponse r = client.embeddings().create(EmbeddingCreateParams.builder()
                .model("text-embedding-3-small").input("tea").dimensions(1024).build());
        assertThat(r.data().get(0).embedding()).hasSize(1024);
        assertThat(r.usage().promptTokens()).isEqualTo(3);
    }
}
