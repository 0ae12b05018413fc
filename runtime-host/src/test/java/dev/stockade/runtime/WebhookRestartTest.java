package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.webhook.WebhookStore;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Accepted runs are durable: a runtime process killed with SIGKILL while runs are pending (one of them
 * mid-call) loses none; the next start runs them all, in acceptance order.
 */
class WebhookRestartTest {
    @TempDir
    Path home;

    @Test
    void pendingRunsSurviveSigkillAndRunAfterRestart() throws Exception {
        try (ProviderDouble provider = new ProviderDouble().holdChats()) {
            TestRuntime cfg = new TestRuntime(home, TestRuntime.azure(provider));
            int port = freePort();
            cfg.env.put("PORT", Integer.toString(port));
            Process p = spawn(cfg.env);
            List<String> ids = new ArrayList<>();
            try {
                String base = "http://127.0.0.1:" + port;
                awaitReady(base);
                send(base, "PATCH", "/agents/webhook-receiver", "{\"enabled\":true}");
                send(base, "POST", "/agents/webhook-subscriptions", "{\"name\":\"ci\",\"deliverTo\":\"chat\","
                        + "\"prompt\":\"build {n}\"}");
                for (int i = 0; i < 5; i++) {
                    HttpResponse<String> r = send(base, "POST", "/agents/webhooks/ci", "{\"n\":" + i + "}");
                    assertThat(r.statusCode()).isEqualTo(202);
                    ids.add(ProviderDouble.JSON.readTree(r.body()).path("runId").asText());
                }
                TestRuntime.await(() -> provider.chats().size() == 1); // the first run is mid-call
            } finally {
                p.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs
            }
            provider.release(100);
            cfg.env.put("PORT", "0");
            try (TestRuntime rt = cfg.start()) {
                WebhookStore store = new WebhookStore(rt.runtime.store());
                TestRuntime.await(() -> {
                    try {
                        return store.runs("ci").stream().allMatch(r -> r.status().equals("done"));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThat(store.runs("ci")).extracting(WebhookStore.Run::id).containsExactlyElementsOf(ids);
                List<String> prompts = provider.chats().stream().skip(1).map(WebhookReceiverTest::lastUserText).toList();
                assertThat(prompts).containsExactly("build 0", "build 1", "build 2", "build 3", "build 4");
            }
        }
    }

    private static Process spawn(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.stockade.runtime.RuntimeMain")
                .redirectErrorStream(true).redirectOutput(new File(env.get("AGENT_HOME"), "runtime.log"));
        pb.environment().putAll(env);
        return pb.start();
    }

    private static int freePort() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitReady(String base) throws InterruptedException {
        TestRuntime.await(() -> {
            try {
                return send(base, "GET", "/health", null).statusCode() == 200;
            } catch (Exception e) {
                return false;
            }
        });
    }

    private static HttpResponse<String> send(String base, String method, String path, String body) throws Exception {
        return TestRuntime.HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
