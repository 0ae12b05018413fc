package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.runtime.observe.Tracing;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LLM tracing to Langfuse (a stand-in speaking its batch ingestion API: Basic auth, 207 Multi-Status): a
 * turn becomes a trace with a generation per model call and a span per tool, and no prompt, reply, tool
 * input or output, URL, path or credential is in any event.
 */
class LangfuseTracingTest {
    @TempDir
    Path home;
    HttpServer langfuse;
    final List<JsonNode> batches = Collections.synchronizedList(new ArrayList<>());
    final List<String> auth = Collections.synchronizedList(new ArrayList<>());
    final List<String> raw = Collections.synchronizedList(new ArrayList<>());
    ProviderDouble provider;

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        langfuse = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        langfuse.createContext("/api/public/ingestion", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            raw.add(body);
            auth.add(ex.getRequestHeaders().getFirst("authorization"));
            JsonNode batch = ProviderDouble.JSON.readTree(body);
            batches.add(batch);
            StringBuilder ok = new StringBuilder("{\"successes\":[");
            for (int i = 0; i < batch.path("batch").size(); i++) {
                ok.append(i == 0 ? "" : ",").append("{\"id\":\"").append(batch.path("batch").get(i).path("id").asText())
                        .append("\",\"status\":201}");
            }
            byte[] answer = ok.append("],\"errors\":[]}").toString().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("content-type", "application/json");
            ex.sendResponseHeaders(207, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        langfuse.start();
    }

    @AfterEach
    void stop() {
        langfuse.stop(0);
        provider.close();
    }

    private List<JsonNode> events(String type) {
        List<JsonNode> out = new ArrayList<>();
        synchronized (batches) {
            batches.forEach(b -> b.path("batch").forEach(e -> {
                if (e.path("type").asText().equals(type)) {
                    out.add(e.path("body"));
                }
            }));
        }
        return out;
    }

    @Test
    void aTurnIsATraceWithItsModelCallsAndToolsAndNoContent() throws Exception {
        String secretText = "SECRET-CUSTOMER-NOTE";
        String url = "https://internal.example.com/private/path";
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.put("LANGFUSE_SECRET_KEY", "sk-lf-secret-0123");
        env.put("LANGFUSE_PUBLIC_KEY", "pk-lf-public-4567");
        env.put("LANGFUSE_BASE_URL", "http://127.0.0.1:" + langfuse.getAddress().getPort() + "/");
        String thread;
        try (TestRuntime rt = new TestRuntime(home, env).start()) {
            provider.enqueue(ProviderDouble.Reply.tool(secretText + " " + url, "memory_write",
                    "{\"content\":\"" + secretText + " at " + home + "\"}"), ProviderDouble.Reply.text(secretText)
                    .withInputTokens(321));
            thread = rt.post("/agents/threads", "{\"title\":\"t\"}").json().path("id").asText();
            assertThat(rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"" + secretText + " " + url
                    + "\"}").status()).isEqualTo(200);
            TestRuntime.await(() -> events("trace-create").size() == 1 && events("generation-create").size() == 2
                    && events("span-create").size() == 1);
        }
        JsonNode trace = events("trace-create").get(0);
        assertThat(trace.path("name").asText()).isEqualTo("agent-turn");
        assertThat(trace.path("sessionId").asText()).isEqualTo(thread);
        assertThat(trace.path("metadata").path("steps").asInt()).isEqualTo(2);
        assertThat(trace.path("metadata").path("toolCalls").asInt()).isEqualTo(1);
        List<JsonNode> gens = events("generation-create");
        assertThat(gens).allSatisfy(g -> {
            assertThat(g.path("traceId").asText()).isEqualTo(trace.path("id").asText());
            assertThat(g.path("model").asText()).isNotBlank();
            assertThat(g.has("startTime") && g.has("endTime")).isTrue();
        });
        assertThat(gens).extracting(g -> g.path("usageDetails").path("input").asLong()).contains(321L);
        assertThat(events("span-create").get(0).path("name").asText()).isEqualTo("tool:memory_write");
        // copies (taken under the lists' locks): the collector's thread may still be adding to them
        assertThat(List.copyOf(auth)).allSatisfy(a -> assertThat(a).isEqualTo("Basic " + Base64.getEncoder().encodeToString(
                "pk-lf-public-4567:sk-lf-secret-0123".getBytes(StandardCharsets.UTF_8))));
        String all = String.join("\n", List.copyOf(raw));
        assertThat(all).doesNotContain(secretText, "internal.example.com", home.toString(), "sk-azure-test-secret",
                "sk-lf-secret", provider.base());
    }

    @Test
    void aFailedModelCallIsAnErrorGenerationNamingOnlyTheFailureClass() throws Exception {
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.put("LANGFUSE_SECRET_KEY", "sk-lf-secret-0123");
        env.put("LANGFUSE_BASE_URL", "http://127.0.0.1:" + langfuse.getAddress().getPort());
        try (TestRuntime rt = new TestRuntime(home, env).start()) {
            provider.enqueue(ProviderDouble.Reply.status(400));
            String thread = rt.post("/agents/threads", "{\"title\":\"t\"}").json().path("id").asText();
            assertThat(rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"hi\"}").status())
                    .isEqualTo(502);
            TestRuntime.await(() -> events("generation-create").size() == 1 && events("trace-create").size() == 1);
        }
        JsonNode g = events("generation-create").get(0);
        assertThat(g.path("level").asText()).isEqualTo("ERROR");
        assertThat(g.path("statusMessage").asText()).isEqualTo("ProviderException");
        assertThat(events("trace-create").get(0).path("metadata").path("failed").asBoolean()).isTrue();
        assertThat(String.join("\n", List.copyOf(raw))).doesNotContain("slow down");
    }

    @Test
    void aBaseUrlThatIsNotHttpLeavesTracingOffAndTheRuntimeRunning() throws Exception {
        assertThat(Tracing.langfuse("ftp://x", "p", "s", null).enabled()).isFalse();
        assertThat(Tracing.langfuse("not a url", "p", "s", null).enabled()).isFalse();
        assertThat(Tracing.langfuse("http://127.0.0.1:1", "p", "", null).enabled()).isFalse();
        assertThat(Tracing.langfuse("http://127.0.0.1:1", null, "s", null).enabled()).isTrue();
    }
}
