package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code /llm} routes with the official SDKs as clients and a provider double upstream speaking each wire
 * format: answers arrive whole and streamed, the backend sees the installation's key and never the caller's token,
 * each call is metered into the ledger at the published list price and audited, a stream cut upstream fails the
 * caller's stream, and what the policy does not enable is a 404.
 */
@MicronautTest(transactional = false)
class LlmProxyTest extends PlatformTest {
    /** Published list prices (USD per million tokens), not read from the platform's table. */
    private static final long HAIKU_COST = ProviderDouble.INPUT * 1 + ProviderDouble.OUTPUT * 5;      // $1 / $5
    private static final long MINI_COST = (ProviderDouble.INPUT * 15 + ProviderDouble.OUTPUT * 60) / 100; // $0.15/$0.60
    /**
     * Haiku 4.5's published prices for the cache and searches (USD per million tokens: cache read $0.10, five-minute
     * write $1.25, one-hour write $2; $10 per thousand web searches) for 2,000 read, 300 + 100 written and 2 searches.
     */
    private static final long CACHED_HAIKU_COST = HAIKU_COST + 2_000 / 10 + 300 * 125 / 100 + 100 * 2 + 2 * 10_000;
    private static final String AZURE_KEY = "azure-deployment-key-7f3a";
    private static final String OPENAI_KEY = "openai-deployment-key-91c2";

    private final ProviderDouble upstream = ProviderDouble.start();
    private String org;
    private String project;
    private String token;

    JsonNode awaitUsage(int calls) {
        return InferenceFixtures.awaitUsage(http, ownerToken(), org, calls);
    }

    List<JsonNode> awaitAudit(String outcome) {
        return InferenceFixtures.awaitAudit(http, ownerToken(), org, outcome);
    }

    static String usd(long micros) {
        return InferenceFixtures.usd(micros);
    }

    @Override
    protected Map<String, String> extraProperties() {
        InferenceFixtures.writeSecret(dataDir, "azure", AZURE_KEY);
        InferenceFixtures.writeSecret(dataDir, "openai", OPENAI_KEY);
        Map<String, String> p = new HashMap<>();
        p.put("inference.allow-loopback-unsafe", "true");
        p.put("inference.azure.enabled", "true");
        p.put("inference.azure.base-url", upstream.baseUrl());
        p.put("inference.azure.api-key-secret", "azure");
        p.put("inference.openai.enabled", "true");
        p.put("inference.openai.base-url", upstream.baseUrl());
        p.put("inference.openai.api-key-secret", "openai");
        return p;
    }

    @BeforeEach
    void world() {
        String owner = ownerToken();
        org = createOrg(owner, "llm-" + System.nanoTime());
        project = createProject(owner, org, "agents");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "models",
                "managedInference", Map.of("enabled", true, "provider", "azure", "providers",
                        List.of("azure", "openai")))).text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", t.text("id")));
        token = t.text("token");
        upstream.received.clear();
        upstream.ending = ProviderDouble.Ending.COMPLETE;
        upstream.cacheRead = 0;
        upstream.cacheWrite = 0;
        upstream.cacheWrite1h = 0;
        upstream.webSearches = 0;
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void theAnthropicSdkGetsAWholeAnswerAndTheCallIsMeteredAtItsPrice() {
        Message m = anthropic().messages().create(haiku().build());
        assertThat(m.content().get(0).text().orElseThrow().text()).isEqualTo("Hello from the double");
        ProviderDouble.Received got = upstream.received.get(0);
        assertThat(got.path()).isEqualTo("/anthropic/v1/messages");
        assertThat(got.header("api-key")).isEqualTo(AZURE_KEY);
        assertThat(got.headers().toString()).doesNotContain(token);
        JsonNode usage = awaitUsage(1);
        assertThat(usage.path("costUsd").asText()).isEqualTo(usd(HAIKU_COST));
        assertThat(usage.path("inputTokens").asLong()).isEqualTo(ProviderDouble.INPUT);
        assertThat(usage.path("outputTokens").asLong()).isEqualTo(ProviderDouble.OUTPUT);
        JsonNode entry = awaitAudit("success").get(0);
        assertThat(entry.path("details").path("costMicros").asLong()).isEqualTo(HAIKU_COST);
        assertThat(entry.path("details").path("keySource").asText()).isEqualTo("deployment");
    }

    @Test
    void cacheReadsWritesAndSearchesAreEachStoredAndReadBackWholeAndStreamed() {
        upstream.cacheRead = 2_000;
        upstream.cacheWrite = 400;
        upstream.cacheWrite1h = 100;
        upstream.webSearches = 2;
        anthropic().messages().create(haiku().build());
        JsonNode usage = awaitUsage(1);
        assertThat(usage.path("costUsd").asText()).isEqualTo(usd(CACHED_HAIKU_COST));
        assertThat(usage.path("inputTokens").asLong()).isEqualTo(ProviderDouble.INPUT + 2_000 + 400);
        assertThat(usage.path("outputTokens").asLong()).isEqualTo(ProviderDouble.OUTPUT);
        assertThat(usage.path("cacheReadTokens").asLong()).isEqualTo(2_000);
        assertThat(usage.path("cacheWriteTokens").asLong()).isEqualTo(400);
        assertThat(usage.path("cacheWrite1hTokens").asLong()).isEqualTo(100);
        assertThat(usage.path("webSearches").asLong()).isEqualTo(2);
        assertThat(usage.path("inputAudioTokens").asLong()).isZero();

        try (StreamResponse<RawMessageStreamEvent> s = anthropic().messages().createStreaming(haiku().build())) {
            s.stream().forEach(e -> { });
        }
        JsonNode both = awaitUsage(2);
        assertThat(both.path("costUsd").asText()).isEqualTo(usd(2 * CACHED_HAIKU_COST));
        assertThat(both.path("cacheReadTokens").asLong()).isEqualTo(4_000);
        assertThat(both.path("cacheWriteTokens").asLong()).isEqualTo(800);
        assertThat(both.path("cacheWrite1hTokens").asLong()).isEqualTo(200);
        assertThat(both.path("webSearches").asLong()).isEqualTo(4);
    }

    @Test
    void aStreamedAnswerPassesThroughAndItsUsageIsMetered() {
        StringBuilder text = new StringBuilder();
        try (StreamResponse<RawMessageStreamEvent> s = anthropic().messages().createStreaming(haiku().build())) {
            s.stream().forEach(e -> e.contentBlockDelta().ifPresent(d -> d.delta().text()
                    .ifPresent(t -> text.append(t.text()))));
        }
        assertThat(text).hasToString("Hello from the double");
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(HAIKU_COST));
    }

    @Test
    void aStreamCutBeforeItsFinalEventFailsTheCallersStreamAndBillsWhatWasSeen() {
        upstream.ending = ProviderDouble.Ending.CUT_BEFORE_TERMINAL;
        assertThatThrownBy(() -> {
            try (StreamResponse<RawMessageStreamEvent> s = anthropic().messages().createStreaming(haiku().build())) {
                s.stream().forEach(e -> { });
            }
        }).isInstanceOf(RuntimeException.class);
        JsonNode entry = awaitAudit("error").get(0);
        assertThat(entry.path("details").path("streamTruncated").asBoolean()).isTrue();
        // message_start reported the input and one output token: that much was spent and is billed
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(ProviderDouble.INPUT + 5));
    }

    @Test
    void theOpenaiSdkStreamIsMeteredThoughTheClientDidNotAskForUsage() {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(base("openai")).apiKey(token).maxRetries(0).build();
        StringBuilder text = new StringBuilder();
        List<ChatCompletionChunk> chunks = new java.util.ArrayList<>();
        try (var s = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model("gpt-4o-mini").addUserMessage("hi").build())) {
            s.stream().peek(chunks::add).flatMap(c -> c.choices().stream()).map(ChatCompletionChunk.Choice::delta)
                    .forEach(d -> d.content().ifPresent(text::append));
        }
        assertThat(text).hasToString("Hello from the double");
        // the usage chunk the proxy asked for is metered, and withheld from a client that did not ask for it
        assertThat(chunks).isNotEmpty().noneMatch(c -> c.choices().isEmpty())
                .noneMatch(c -> c.usage().isPresent());
        JsonNode sent = upstream.received.get(0).body();
        assertThat(sent.path("stream_options").path("include_usage").asBoolean()).isTrue();
        assertThat(upstream.received.get(0).header("authorization")).isEqualTo("Bearer " + OPENAI_KEY);
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(MINI_COST));
    }

    @Test
    void aClientThatAsksForStreamUsageGetsTheUsageChunk() {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(base("openai")).apiKey(token).maxRetries(0).build();
        List<ChatCompletionChunk> chunks = new java.util.ArrayList<>();
        try (var s = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
                .model("gpt-4o-mini").addUserMessage("hi").streamOptions(
                        com.openai.models.chat.completions.ChatCompletionStreamOptions.builder().includeUsage(true)
                                .build()).build())) {
            s.stream().forEach(chunks::add);
        }
        assertThat(chunks.stream().flatMap(c -> c.usage().stream()).map(u -> u.promptTokens()))
                .containsExactly((long) ProviderDouble.INPUT);
        assertThat(awaitUsage(1).path("costUsd").asText()).isEqualTo(usd(MINI_COST));
    }

    @Test
    void aBackendThePolicyDoesNotEnableIsNotFoundAndTheRefusalIsAudited() {
        Http.Response r = http.post("/v1/projects/" + project + "/llm/openrouter/openai/v1/chat/completions", token,
                Map.of("model", "gpt-4o-mini", "messages", List.of()));
        assertThat(problem(r, 404)).isEqualTo("inference_not_available");
        assertThat(r.body().path("detail").asText()).contains("openrouter");
        assertThat(upstream.received).isEmpty();
        assertThat(awaitAudit("denied")).isNotEmpty();
    }

    @Test
    void aPathTheBackendDoesNotProxyIsNotFound() {
        Http.Response r = http.post("/v1/projects/" + project + "/llm/openai/v1/files", token, Map.of());
        assertThat(problem(r, 404)).isEqualTo("inference_not_available");
        assertThat(upstream.received).isEmpty();
    }

    @Test
    void theUnprefixedRouteServesACallerWithOneProject() {
        Http.Response r = http.post("/v1/llm/openai/v1/chat/completions", token,
                Map.of("model", "gpt-4o-mini", "messages", List.of(Map.of("role", "user", "content", "hi"))));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(r.body().path("choices").get(0).path("message").path("content").asText())
                .isEqualTo("Hello from the double");
    }

    @Test
    void aReachedLimitAnswers429ThatTheSdksDoNotRetry() {
        http.put("/v1/orgs/" + org + "/spending-limits/projects/" + project, ownerToken(), Map.of("amountUsd", "0"));
        Http.Response r = http.post("/v1/projects/" + project + "/llm/azure/anthropic/v1/messages", token,
                Map.of("model", "claude-haiku-4-5", "max_tokens", 100,
                        "messages", List.of(Map.of("role", "user", "content", "hi"))));
        assertThat(problem(r, 429)).isEqualTo("spending_limit_reached");
        assertThat(upstream.received).isEmpty();
        assertThat(awaitAudit("denied")).isNotEmpty();
    }

    @Test
    void aHaltCutsAnOpenStreamAndRefusesTheNextCall() throws Exception {
        upstream.ending = ProviderDouble.Ending.HOLD_OPEN;
        upstream.streaming = new CountDownLatch(1);
        CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> {
            try (StreamResponse<RawMessageStreamEvent> s = anthropic().messages().createStreaming(haiku().build())) {
                s.stream().forEach(e -> { });
            }
        });
        assertThat(upstream.streaming.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(http.post("/v1/orgs/" + org + "/halt", ownerToken(), null).status()).isEqualTo(200);
        Await.until("the open stream to fail", Await.BOUND, reading::isDone);
        assertThat(reading).isCompletedExceptionally();
        Http.Response next = http.post("/v1/projects/" + project + "/llm/azure/anthropic/v1/messages", token,
                Map.of("model", "claude-haiku-4-5", "max_tokens", 10, "messages", List.of()));
        assertThat(problem(next, 403)).isEqualTo("halted");
        // a halt answers before every other refusal: a backend the policy does not enable, a body that is not a call
        assertThat(problem(http.post("/v1/projects/" + project + "/llm/openrouter/openai/v1/chat/completions", token,
                Map.of("model", "x", "messages", List.of())), 403)).isEqualTo("halted");
        assertThat(problem(http.post("/v1/projects/" + project + "/llm/azure/anthropic/v1/messages", token,
                Map.of("messages", "not a list")), 403)).isEqualTo("halted");
        http.delete("/v1/orgs/" + org + "/halt", ownerToken());
    }

    private AnthropicClient anthropic() {
        return AnthropicOkHttpClient.builder().baseUrl(base("azure/anthropic")).apiKey(token).maxRetries(0).build();
    }

    private static MessageCreateParams.Builder haiku() {
        return MessageCreateParams.builder().model("claude-haiku-4-5").maxTokens(1024).addUserMessage("hi");
    }

    private String base(String route) {
        return http.base() + "/v1/projects/" + project + "/llm/" + route;
    }
}
