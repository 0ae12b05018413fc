package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.runtime.agent.Memory;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.provider.AnthropicMessages;
import dev.stockade.runtime.provider.AwsSigV4;
import dev.stockade.runtime.provider.ChatModel;
import dev.stockade.runtime.provider.Embeddings;
import dev.stockade.runtime.provider.Item;
import dev.stockade.runtime.provider.ModelReply;
import dev.stockade.runtime.provider.ModelRequest;
import dev.stockade.runtime.provider.OpenAiResponses;
import dev.stockade.runtime.provider.ProviderException;
import dev.stockade.runtime.provider.ProviderHttp;
import dev.stockade.runtime.provider.ToolSpec;
import dev.stockade.runtime.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime's provider clients against doubles speaking each real wire format. */
class ProviderWireTest {
    @TempDir
    Path dir;
    ProviderDouble provider;
    final ProviderHttp http = new ProviderHttp(4, 10);
    final ModelRequest request = new ModelRequest("claude-opus-5", "be brief",
            List.of(new Item.UserText("hi"), new Item.AssistantText("hello"), new Item.ToolCall("t1", "shell",
                    ProviderDouble.JSON.createObjectNode().put("command", "ls")), new Item.ToolResult("t1", "a.txt", false)),
            List.of(new ToolSpec("shell", "run", ProviderDouble.JSON.createObjectNode().put("type", "object"))), 512);

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
    }

    @AfterEach
    void stop() {
        provider.close();
    }

    private ModelReply call(ChatModel m) throws ProviderException {
        List<String> deltas = new ArrayList<>();
        ModelReply r = m.complete(request, deltas::add);
        assertThat(String.join("", deltas)).isEqualTo(r.text());
        return r;
    }

    private void assertToolReply(ModelReply r) {
        assertThat(r.text()).isEqualTo("Running it.");
        assertThat(r.toolCalls()).hasSize(1);
        assertThat(r.toolCalls().get(0).name()).isEqualTo("shell");
        assertThat(r.toolCalls().get(0).input().path("command").asText()).isEqualTo("pwd");
        assertThat(r.inputTokens()).isEqualTo(100);
        assertThat(r.outputTokens()).isEqualTo(42);
    }

    @Test
    void anthropicMessagesOverSse() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool("Running it.", "shell", "{\"command\":\"pwd\"}"));
        assertToolReply(call(new AnthropicMessages(http, provider.base() + "/anthropic", "az-key", false)));
        ProviderDouble.Call c = provider.calls().get(0);
        assertThat(c.path()).isEqualTo("/anthropic/v1/messages");
        assertThat(c.header("x-api-key")).isEqualTo("az-key");
        assertThat(c.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(c.body().path("model").asText()).isEqualTo("claude-opus-5");
        assertThat(c.body().path("stream").asBoolean()).isTrue();
        assertThat(c.body().path("tools").get(0).has("input_schema")).isTrue();
        assertThat(c.body().path("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"hi\"}]},{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"hello\"},"
                + "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"shell\",\"input\":{\"command\":\"ls\"}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"a.txt\","
                + "\"is_error\":false}]}]");
    }

    @Test
    void anthropicOnTheBedrockRuntimeOverEventStream() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool("Running it.", "shell", "{\"command\":\"pwd\"}"));
        assertToolReply(call(new AnthropicMessages(http, provider.base(), "bedrock-api-key", true)));
        ProviderDouble.Call c = provider.calls().get(0);
        assertThat(c.path()).isEqualTo("/model/claude-opus-5/invoke-with-response-stream");
        assertThat(c.header("authorization")).isEqualTo("Bearer bedrock-api-key");
        assertThat(c.body().path("anthropic_version").asText()).isEqualTo("bedrock-2023-05-31");
        assertThat(c.body().has("model")).isFalse();
    }

    @Test
    void theBedrockRuntimeIsSignedWithSigV4WhenTheContainerHasAnAccessKeyPair() throws Exception {
        String secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
        java.time.Clock at = java.time.Clock.fixed(java.time.Instant.parse("2026-11-24T12:00:00Z"),
                java.time.ZoneOffset.UTC);
        AwsSigV4 signer = new AwsSigV4("AKIDEXAMPLE", secret, "eu-west-3", at);
        provider.enqueue(ProviderDouble.Reply.tool("Running it.", "shell", "{\"command\":\"pwd\"}"));
        assertToolReply(call(new AnthropicMessages(http, provider.base(), null, true, signer)));
        ProviderDouble.Call c = provider.calls().get(0);
        String auth = c.header("authorization");
        assertThat(auth).startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261124/eu-west-3/bedrock/aws4_request,"
                + " SignedHeaders=").doesNotContain(secret);
        assertThat(c.header("x-amz-date")).isEqualTo("20261124T120000Z");
        // what AWS does on receipt: sign the request as it arrived (method, path, host, the signed headers, the body
        // bytes) with the key pair; a different body, path or header gives another signature
        String signedHeaders = auth.replaceAll(".*SignedHeaders=([^,]+),.*", "$1");
        assertThat(signedHeaders.split(";")).contains("host", "x-amz-date");
        software.amazon.awssdk.http.SdkHttpRequest.Builder received = software.amazon.awssdk.http.SdkHttpRequest
                .builder().method(software.amazon.awssdk.http.SdkHttpMethod.POST)
                .uri(java.net.URI.create("http://" + c.header("host") + c.path()));
        for (String h : signedHeaders.split(";")) {
            if (!h.equals("host")) {
                received.putHeader(h, c.header(h));
            }
        }
        var again = software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.create().sign(r -> r
                .identity(software.amazon.awssdk.identity.spi.AwsCredentialsIdentity.create("AKIDEXAMPLE", secret))
                .request(received.build()).payload(software.amazon.awssdk.http.ContentStreamProvider.fromByteArray(c.raw()))
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.REGION_NAME, "eu-west-3")
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.SIGNING_CLOCK, at));
        assertThat(again.request().firstMatchingHeader("Authorization")).hasValue(auth);
        assertThat(signer.toString()).doesNotContain(secret).doesNotContain("AKIDEXAMPLE");
        // a key pair does not replace an API key: with one, the bearer token is sent
        provider.enqueue(ProviderDouble.Reply.text("ok"));
        call(new AnthropicMessages(http, provider.base(), "bedrock-api-key", true, signer));
        assertThat(provider.calls().get(1).header("authorization")).isEqualTo("Bearer bedrock-api-key");
    }

    @Test
    void openAiResponsesOverSse() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool("Running it.", "shell", "{\"command\":\"pwd\"}"));
        assertToolReply(call(new OpenAiResponses(http, provider.base() + "/v1", "sk-test")));
        ProviderDouble.Call c = provider.calls().get(0);
        assertThat(c.path()).isEqualTo("/v1/responses");
        assertThat(c.header("authorization")).isEqualTo("Bearer sk-test");
        assertThat(c.body().path("instructions").asText()).isEqualTo("be brief");
        assertThat(c.body().path("input").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"hi\"},"
                + "{\"role\":\"assistant\",\"content\":\"hello\"},{\"type\":\"function_call\",\"call_id\":\"t1\","
                + "\"name\":\"shell\",\"arguments\":\"{\\\"command\\\":\\\"ls\\\"}\"},{\"type\":\"function_call_output\","
                + "\"call_id\":\"t1\",\"output\":\"a.txt\"}]");
        assertThat(c.body().path("tools").get(0).path("type").asText()).isEqualTo("function");
    }

    @Test
    void retriesWithBackoffOn429And5xxThenSucceeds() throws Exception {
        provider.enqueue(ProviderDouble.Reply.status(429), ProviderDouble.Reply.status(503),
                ProviderDouble.Reply.status(500), ProviderDouble.Reply.text("finally"));
        ModelReply r = call(new AnthropicMessages(http, provider.base(), "k", false));
        assertThat(r.text()).isEqualTo("finally");
        assertThat(provider.calls()).hasSize(4);
    }

    @Test
    void givesUpAfterTheLastAttemptAndNeverRetriesOtherStatuses() {
        provider.fallback(c -> ProviderDouble.Reply.status(529));
        assertThatThrownBy(() -> call(new OpenAiResponses(http, provider.base(), "sk-secret-key")))
                .isInstanceOf(ProviderException.class).hasMessage("chat: the provider answered HTTP 529 after 4 attempts");
        assertThat(provider.calls()).hasSize(4);
        provider.fallback(c -> ProviderDouble.Reply.status(401));
        assertThatThrownBy(() -> call(new OpenAiResponses(http, provider.base(), "sk-secret-key")))
                .hasMessage("chat: the provider answered HTTP 401");
        assertThat(provider.calls()).hasSize(5);
    }

    @Test
    void aCutStreamIsAClearErrorOnEveryTransport() {
        provider.fallback(c -> ProviderDouble.Reply.cut("partial"));
        assertThatThrownBy(() -> call(new AnthropicMessages(http, provider.base(), "k", false)))
                .hasMessage("the provider's stream was cut before message_stop");
        assertThatThrownBy(() -> call(new AnthropicMessages(http, provider.base(), "k", true)))
                .hasMessage("the provider's stream was cut before message_stop");
        assertThatThrownBy(() -> call(new OpenAiResponses(http, provider.base(), "k")))
                .hasMessage("the provider's stream was cut before response.completed");
        assertThat(provider.calls()).hasSize(3); // a started stream is never retried
    }

    @Test
    void embeddingsAt1024DimensionsOnEachWire() throws Exception {
        assertThat(new Embeddings(http, Embeddings.Wire.OPENAI, provider.base() + "/v1", "sk", "text-embedding-3-small",
                null).embed("tea")).hasSize(1024);
        assertThat(provider.calls().get(0).body().path("dimensions").asInt()).isEqualTo(1024);
        assertThat(new Embeddings(http, Embeddings.Wire.AZURE, provider.base() + "/openai", "az", "embed-dep",
                "2025-04-01-preview").embed("tea")).hasSize(1024);
        assertThat(provider.calls().get(1).path()).isEqualTo("/openai/deployments/embed-dep/embeddings?api-version="
                + "2025-04-01-preview");
        assertThat(provider.calls().get(1).header("api-key")).isEqualTo("az");
        assertThat(new Embeddings(http, Embeddings.Wire.TITAN, provider.base(), "br", "amazon.titan-embed-text-v2:0",
                null).embed("tea")).hasSize(1024);
        assertThat(provider.calls().get(2).path()).isEqualTo("/model/amazon.titan-embed-text-v2%3A0/invoke");
        provider.embeddings(200, 1536);
        assertThatThrownBy(() -> new Embeddings(http, Embeddings.Wire.AZURE, provider.base(), "az", "d", "v").embed("x"))
                .hasMessage("the embedding deployment returned 1536 dimensions, not 1024");
    }

    @Test
    void memoryFailsOpenWhenTheEmbeddingDeploymentIsMissingOrIgnoresDimensions() throws Exception {
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        Log.to(new PrintStream(logs, true, StandardCharsets.UTF_8));
        try (Store store = Store.open(dir.resolve("m.db"))) {
            provider.embeddings(404, 1024);
            Memory memory = new Memory(store, new Embeddings(http, Embeddings.Wire.AZURE, provider.base(), "az",
                    "missing-deployment", "v"));
            memory.write("Ada prefers green tea");
            memory.write("Grace drinks coffee");
            assertThat(memory.search("tea", 5)).extracting(Memory.Entry::content).containsExactly("Ada prefers green tea");
            provider.embeddings(200, 1536);
            memory.write("Linus likes mate");
            assertThat(memory.count()).isEqualTo(3);
            provider.embeddings(200, 1024);
            memory.write("Ken likes tea too");
            assertThat(memory.search("tea", 5)).extracting(Memory.Entry::content)
                    .contains("Ada prefers green tea", "Ken likes tea too");
        } finally {
            Log.to(System.err);
        }
        String log = logs.toString(StandardCharsets.UTF_8);
        assertThat(log.split("memory.embedding_unavailable", -1)).hasSize(2); // logged once
        assertThat(log).doesNotContain("\"az\"").doesNotContain(provider.base());
    }
}
