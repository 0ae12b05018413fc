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
    void awsSdkReadsTheDoublesBedrockEventStreamAndItsSigV4PassesTheDouble() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool("Looking it up.", "memory_search", "{\"query\":\"tea\"}")
                .withInputTokens(1234));
        List<String> chunks = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var client = software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient.builder()
                .endpointOverride(java.net.URI.create(provider.base()))
                .region(software.amazon.awssdk.regions.Region.EU_WEST_3)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .httpClientBuilder(software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient.builder()
                        .protocol(software.amazon.awssdk.http.Protocol.HTTP1_1))
                .build()) {
            var handler = software.amazon.awssdk.services.bedrockruntime.model
                    .InvokeModelWithResponseStreamResponseHandler.builder()
                    .subscriber(software.amazon.awssdk.services.bedrockruntime.model
                            .InvokeModelWithResponseStreamResponseHandler.Visitor.builder()
                            .onChunk(c -> chunks.add(c.bytes().asUtf8String())).build())
                    .build();
            client.invokeModelWithResponseStream(r -> r.modelId("claude-opus-5").contentType("application/json")
                    .body(software.amazon.awssdk.core.SdkBytes.fromUtf8String("{\"anthropic_version\":"
                            + "\"bedrock-2023-05-31\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\","
                            + "\"content\":\"What does Ada drink?\"}]}")), handler)
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        // the SDK decoded every event-stream frame into the Messages events the runtime reads
        assertThat(chunks.get(0)).contains("\"message_start\"").contains("1234");
        assertThat(chunks.get(chunks.size() - 1)).contains("\"message_stop\"");
        assertThat(String.join("", chunks)).contains("Looking it up.").contains("memory_search");
        ProviderDouble.Call c = provider.calls().get(0);
        assertThat(c.path()).isEqualTo("/model/claude-opus-5/invoke-with-response-stream");
        // what the SDK signs is what the runtime's signer produces for the same request
        assertThat(c.header("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                .contains("/eu-west-3/bedrock/aws4_request");
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
