package dev.stockade.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A real runtime for tests: the real HTTP server on a loopback port, a real SQLite file in a temporary
 * data home, and (by default) an Anthropic-on-Azure provider pointed at a {@link ProviderDouble}.
 */
final class TestRuntime implements AutoCloseable {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One answer: status and parsed JSON body (null when empty). */
    record Answer(int status, JsonNode json, String body) {
    }

    final Path home;
    final Map<String, String> env;
    AgentRuntime runtime;
    /** Whether heartbeat and cron run on their own timer (tests that tick explicitly turn it off). */
    boolean timers = true;

    TestRuntime(Path home, Map<String, String> extraEnv) {
        this.home = home;
        this.env = new HashMap<>();
        env.put("AGENT_HOME", home.toString());
        env.put("AGENT_DATA_DIR", home.resolve("data").toString());
        env.put("PORT", "0");
        env.putAll(extraEnv);
    }

    /** Environment pointing the azure provider at {@code d} (chat over Messages SSE, embeddings from it too). */
    static Map<String, String> azure(ProviderDouble d) {
        Map<String, String> e = new HashMap<>();
        e.put("LLM_PROVIDER", "azure");
        e.put("AZURE_FOUNDRY_BASE_URL", d.base() + "/anthropic/v1");
        e.put("AZURE_API_KEY", "sk-azure-test-secret-0123456789");
        e.put("AZURE_EMBEDDING_MODEL_ID", "");
        return e;
    }

    TestRuntime start() throws Exception {
        RuntimeConfig cfg = RuntimeConfig.load(env, home.toString());
        if (!cfg.problems().isEmpty()) {
            throw new IllegalStateException("config problems: " + cfg.problems());
        }
        runtime = AgentRuntime.start(cfg, "127.0.0.1", timers);
        return this;
    }

    TestRuntime restart() throws Exception {
        runtime.close();
        return start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + runtime.port() + path;
    }

    Answer send(String method, String path, String body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = r.body().isEmpty() ? null : ProviderDouble.JSON.readTree(r.body());
        return new Answer(r.statusCode(), json, r.body());
    }

    Answer post(String path, String body, String... headers) throws IOException, InterruptedException {
        return send("POST", path, body, headers);
    }

    Answer get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    Answer patch(String path, String body) throws IOException, InterruptedException {
        return send("PATCH", path, body);
    }

    /** Waits (up to {@link Await#BOUND}) until {@code cond} holds. */
    static void await(BooleanSupplier cond) {
        Await.until("a condition of the runtime under test", cond);
    }

    @Override
    public void close() {
        if (runtime != null) {
            runtime.close();
        }
    }
}
