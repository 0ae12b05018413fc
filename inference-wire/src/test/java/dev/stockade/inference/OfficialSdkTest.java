package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.MessageCreateParams;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.ResponseCreateParams;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.Protocol;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.InternalServerException;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelWithResponseStreamResponseHandler;

/**
 * The official Java SDKs against a stand-in provider (a JDK HttpServer) that ends a cut stream cleanly: without
 * the injected event they report success (research/sdk-behaviour.md), with {@link TruncationEvent}'s bytes they
 * fail the call (Responses yields the error as an event, as its SDK does for a real one). They also read the
 * fixtures' usage as the meter does and see no usage chunk through {@link ChatUsageFilter}.
 */
class OfficialSdkTest {

    private HttpServer server;
    private volatile byte[] reply = new byte[0];
    private volatile String contentType = "text/event-stream";

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", contentType);
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void serve(String type, byte[] cut, WireFormat injectFor) {
        contentType = type;
        reply = injectFor == null ? cut : Fixtures.concat(cut, TruncationEvent.bytes(injectFor,
                StreamMeterTest.meter(injectFor, cut)));
    }

    private int anthropicEvents() {
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(base()).apiKey("test-key").maxRetries(0).build();
        MessageCreateParams params = MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(100)
                .addUserMessage("hi").build();
        try (var stream = client.messages().createStreaming(params)) {
            return (int) stream.stream().count();
        }
    }

    @Test
    void anthropicSdkFailsOnTheInjectedErrorEvent() {
        byte[] cut = StreamMeterTest.before(Fixtures.resource("streams/anthropic-messages.sse"), "event: message_delta");
        serve("text/event-stream", cut, null);
        assertThat(anthropicEvents()).as("a clean cut passes for success").isPositive();
        serve("text/event-stream", cut, WireFormat.ANTHROPIC_MESSAGES);
        assertThatThrownBy(this::anthropicEvents).hasMessageContaining(TruncationEvent.MESSAGE);
    }

    private long chatChunks() {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(base() + "/v1").apiKey("test-key").maxRetries(0).build();
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("gpt-4o").addUserMessage("hi").build();
        try (var stream = client.chat().completions().createStreaming(params)) {
            return stream.stream().count();
        }
    }

    @Test
    void openAiChatSdkFailsOnTheInjectedErrorChunk() {
        byte[] cut = StreamMeterTest.before(Fixtures.resource("streams/openai-chat.sse"), "data: [DONE]");
        serve("text/event-stream", cut, null);
        assertThat(chatChunks()).as("a clean cut passes for success").isPositive();
        serve("text/event-stream", cut, WireFormat.OPENAI_CHAT);
        assertThatThrownBy(this::chatChunks).hasMessageContaining(TruncationEvent.MESSAGE);
    }

    @Test
    void openAiChatSdkSeesNoUsageChunkThroughTheFilter() {
        byte[] stream = Fixtures.resource("streams/openai-chat.sse");
        ChatUsageFilter filter = new ChatUsageFilter(WireLimits.DEFAULT);
        serve("text/event-stream", Fixtures.concat(filter.pass(stream, 0, stream.length), filter.finish()), null);
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(base() + "/v1").apiKey("k").maxRetries(0).build();
        List<Boolean> usage = new ArrayList<>();
        try (var chunks = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model("gpt-4o").addUserMessage("hi").build())) {
            chunks.stream().forEach(chunk -> usage.add(chunk.usage().isPresent()));
        }
        assertThat(usage).containsExactly(false, false, false);
    }

    @Test
    void openAiResponsesSdkYieldsTheInjectedErrorEvent() {
        byte[] cut = StreamMeterTest.before(Fixtures.resource("streams/openai-responses.sse"), "event: response.completed");
        serve("text/event-stream", cut, WireFormat.OPENAI_RESPONSES);
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(base() + "/v1").apiKey("test-key").maxRetries(0).build();
        List<String> errors = new ArrayList<>();
        try (var stream = client.responses().createStreaming(ResponseCreateParams.builder().model("gpt-4.1").input("hi").build())) {
            stream.stream().forEach(event -> event.error().ifPresent(e -> errors.add(e.message() + " #" + e.sequenceNumber())));
        }
        assertThat(errors).containsExactly(TruncationEvent.MESSAGE + " #2");
    }

    @Test
    void theSdksReadTheFixturesUsageAsTheMeterDoes() {
        byte[] anthropic = Fixtures.resource("streams/anthropic-messages.sse");
        serve("text/event-stream", anthropic, null);
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(base()).apiKey("k").maxRetries(0).build();
        var accumulator = com.anthropic.helpers.MessageAccumulator.create();
        try (var stream = client.messages().createStreaming(MessageCreateParams.builder().model("m").maxTokens(9)
                .addUserMessage("hi").build())) {
            stream.stream().forEach(accumulator::accumulate);
        }
        var sdk = accumulator.message().usage();
        TokenUsage metered = StreamMeterTest.meter(WireFormat.ANTHROPIC_MESSAGES, anthropic).usage().orElseThrow();
        assertThat(List.of(sdk.inputTokens(), sdk.outputTokens(), sdk.cacheReadInputTokens().orElseThrow(),
                sdk.cacheCreationInputTokens().orElseThrow())).containsExactly(metered.inputTokens(),
                metered.outputTokens(), metered.cacheReadTokens(), metered.cacheWriteTokens());

        byte[] chat = Fixtures.resource("streams/openai-chat.sse");
        serve("text/event-stream", chat, null);
        OpenAIClient openAi = OpenAIOkHttpClient.builder().baseUrl(base() + "/v1").apiKey("k").maxRetries(0).build();
        List<Long> sdkUsage = new ArrayList<>();
        try (var stream = openAi.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model("gpt-4o").addUserMessage("hi").build())) {
            stream.stream().forEach(chunk -> chunk.usage().ifPresent(u -> {
                long cached = u.promptTokensDetails().flatMap(d -> d.cachedTokens()).orElse(0L);
                sdkUsage.addAll(List.of(u.promptTokens() - cached, u.completionTokens(), cached));
            }));
        }
        TokenUsage chatMetered = StreamMeterTest.meter(WireFormat.OPENAI_CHAT, chat).usage().orElseThrow();
        assertThat(sdkUsage).containsExactly(chatMetered.inputTokens(), chatMetered.outputTokens(),
                chatMetered.cacheReadTokens());
    }

    private BedrockRuntimeAsyncClient bedrock() {
        return BedrockRuntimeAsyncClient.builder().endpointOverride(URI.create(base())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().protocol(Protocol.HTTP1_1)).build();
    }

    private int invokeChunks() throws Exception {
        List<String> chunks = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (BedrockRuntimeAsyncClient client = bedrock()) {
            var handler = InvokeModelWithResponseStreamResponseHandler.builder()
                    .subscriber(InvokeModelWithResponseStreamResponseHandler.Visitor.builder()
                            .onChunk(c -> chunks.add(c.bytes().asUtf8String())).build()).build();
            client.invokeModelWithResponseStream(r -> r.modelId("anthropic.claude-sonnet-4-5-20250929-v1:0")
                    .contentType("application/json").body(SdkBytes.fromUtf8String("{\"max_tokens\":10,\"messages\":[]}")),
                    handler).get(30, TimeUnit.SECONDS);
        }
        return chunks.size();
    }

    @Test
    void awsSdkFailsInvokeStreamsOnTheInjectedExceptionFrame() throws Exception {
        List<String> events = Fixtures.BEDROCK_INVOKE_EVENTS;
        byte[] cut = Fixtures.invokeStream(events.subList(0, events.size() - 1));
        serve("application/vnd.amazon.eventstream", cut, null);
        assertThat(invokeChunks()).as("a clean cut passes for success").isEqualTo(events.size() - 1);
        serve("application/vnd.amazon.eventstream", cut, WireFormat.BEDROCK_INVOKE);
        assertThatThrownBy(this::invokeChunks).isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(InternalServerException.class).hasMessageContaining(TruncationEvent.MESSAGE);
    }

    @Test
    void awsSdkFailsConverseStreamsOnTheInjectedExceptionFrame() {
        serve("application/vnd.amazon.eventstream", Fixtures.converseStream(false), WireFormat.BEDROCK_CONVERSE);
        assertThatThrownBy(() -> {
            try (BedrockRuntimeAsyncClient client = bedrock()) {
                var handler = ConverseStreamResponseHandler.builder()
                        .subscriber(ConverseStreamResponseHandler.Visitor.builder().build()).build();
                client.converseStream(r -> r.modelId("amazon.nova-pro-v1:0"), handler).get(30, TimeUnit.SECONDS);
            }
        }).isInstanceOf(ExecutionException.class).hasRootCauseInstanceOf(InternalServerException.class);
    }
}
