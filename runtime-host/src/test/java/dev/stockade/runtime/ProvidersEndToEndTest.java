package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole turns through each provider selection, direct and routed through PLATFORM_API_URL. */
class ProvidersEndToEndTest {
    @TempDir
    Path home;

    private static JsonNode turn(TestRuntime rt, String text) throws Exception {
        String thread = rt.post("/agents/threads", "{}").json().path("id").asText();
        TestRuntime.Answer a = rt.post("/agents/threads/" + thread + "/messages",
                ProviderDouble.JSON.createObjectNode().put("text", text).toString());
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return a.json();
    }

    @Test
    void openAiDirectRunsToolsOverResponsesAndEmbedsAt1024() throws Exception {
        try (ProviderDouble d = new ProviderDouble(); TestRuntime rt = new TestRuntime(home, Map.of(
                "LLM_PROVIDER", "openai", "OPENAI_BASE_URL", d.base() + "/v1", "OPENAI_API_KEY", "sk-direct")).start()) {
            d.enqueue(ProviderDouble.Reply.tool(null, "memory_write", "{\"content\":\"the deploy key rotates monthly\"}"),
                    ProviderDouble.Reply.text("Remembered."));
            assertThat(turn(rt, "remember the rotation").path("delivered").get(0).asText()).isEqualTo("Remembered.");
            ProviderDouble.Call first = d.chats().get(0);
            assertThat(first.path()).isEqualTo("/v1/responses");
            assertThat(first.body().path("model").asText()).isEqualTo("gpt-5.6-sol");
            assertThat(first.header("authorization")).isEqualTo("Bearer sk-direct");
            ProviderDouble.Call embed = d.calls().stream().filter(c -> c.path().endsWith("/embeddings")).findFirst()
                    .orElseThrow();
            assertThat(embed.body().path("model").asText()).isEqualTo("text-embedding-3-small");
            assertThat(embed.body().path("dimensions").asInt()).isEqualTo(1024);
        }
    }

    @Test
    void bedrockRoutedThroughThePlatformSpeaksEventStreamWithThePlaceholderKey() throws Exception {
        try (ProviderDouble d = new ProviderDouble(); TestRuntime rt = new TestRuntime(home, Map.of(
                "LLM_PROVIDER", "bedrock", "PLATFORM_API_URL", d.base(),
                "PLATFORM_INFERENCE_BEDROCK_BASE_URL", "${PLATFORM_API_URL}/llm/bedrock",
                "PLATFORM_INFERENCE_BEDROCK_API_KEY", "__platform_inference_key:bedrock__",
                "BEDROCK_EMBEDDING_MODEL_ID", "")).start()) {
            d.enqueue(ProviderDouble.Reply.text("Hello from Bedrock."));
            assertThat(turn(rt, "hi").path("delivered").get(0).asText()).isEqualTo("Hello from Bedrock.");
            ProviderDouble.Call c = d.chats().get(0);
            assertThat(c.path()).isEqualTo("/llm/bedrock/us-east-1/model/us.anthropic.claude-opus-5/invoke-with-response-stream");
            assertThat(c.header("authorization")).isEqualTo("Bearer __platform_inference_key:bedrock__");
        }
    }

    @Test
    void mantleUsesXApiKeyAndTheMessagesPath() throws Exception {
        try (ProviderDouble d = new ProviderDouble(); TestRuntime rt = new TestRuntime(home, Map.of(
                "LLM_PROVIDER", "bedrock-mantle", "PLATFORM_API_URL", d.base(),
                "PLATFORM_INFERENCE_BEDROCK_MANTLE_API_KEY", "mantle-placeholder", "BEDROCK_MODEL_ID", "claude-opus-5",
                "BEDROCK_EMBEDDING_MODEL_ID", "")).start()) {
            turn(rt, "hi");
            ProviderDouble.Call c = d.chats().get(0);
            assertThat(c.path()).isEqualTo("/llm/bedrock-mantle/anthropic/us-east-1/v1/messages");
            assertThat(c.header("x-api-key")).isEqualTo("mantle-placeholder");
            assertThat(c.body().path("model").asText()).isEqualTo("claude-opus-5");
        }
    }

    @Test
    void theModelCatalogIsRefreshedOnceAtStartupFromTheRegistry() throws Exception {
        AtomicInteger fetches = new AtomicInteger();
        HttpServer registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        registry.createContext("/catalog.json", ex -> {
            fetches.incrementAndGet();
            byte[] b = "{\"acme-private-model\":{\"max_input_tokens\":2000,\"mode\":\"chat\"}}"
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        registry.start();
        try (ProviderDouble d = new ProviderDouble()) {
            Map<String, String> env = new java.util.HashMap<>(TestRuntime.azure(d));
            env.put("AZURE_MODEL_ID", "acme-private-model");
            env.put("MODEL_CATALOG_URL", "http://127.0.0.1:" + registry.getAddress().getPort() + "/catalog.json");
            try (TestRuntime rt = new TestRuntime(home, env).start()) {
                d.enqueue(ProviderDouble.Reply.text("a").withInputTokens(500));
                assertThat(turn(rt, "x").path("contextPercent").asInt()).isEqualTo(25);
                d.enqueue(ProviderDouble.Reply.text("b").withInputTokens(1000));
                assertThat(turn(rt, "y").path("contextPercent").asInt()).isEqualTo(50);
            }
            assertThat(fetches.get()).isEqualTo(1);
            env.remove("MODEL_CATALOG_URL");
            try (TestRuntime rt = new TestRuntime(home.resolve("second"), env).start()) {
                assertThat(turn(rt, "z").path("contextPercent").isNull()).isTrue();
            }
            assertThat(fetches.get()).isEqualTo(1);
        } finally {
            registry.stop(0);
        }
    }
}
