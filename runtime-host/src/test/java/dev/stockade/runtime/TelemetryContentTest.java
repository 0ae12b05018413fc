package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Telemetry carries identifiers, flags and counts only: a run full of message content, URLs, paths and
 * credentials reaches an OTLP collector (a stand-in on loopback) without any of them; the structured logs
 * carry no credential or message content either.
 */
class TelemetryContentTest {
    @TempDir
    Path home;

    @Test
    void noContentUrlPathOrCredentialLeaves() throws Exception {
        List<String> exported = Collections.synchronizedList(new ArrayList<>());
        List<String> keys = Collections.synchronizedList(new ArrayList<>());
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/logs", ex -> {
            exported.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            keys.add(ex.getRequestHeaders().getFirst("x-api-key"));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        collector.start();
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        Log.to(new PrintStream(logs, true, StandardCharsets.UTF_8));
        String secretText = "SECRET-CUSTOMER-NOTE";
        String url = "https://internal.example.com/private/path";
        try (ProviderDouble provider = new ProviderDouble()) {
            Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
            env.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort() + "/");
            env.put("OTEL_EXPORTER_OTLP_API_KEY", "otel-collector-key");
            try (TestRuntime rt = new TestRuntime(home, env).start()) {
                provider.enqueue(ProviderDouble.Reply.tool(secretText + " " + url, "shell",
                        "{\"command\":\"cat /etc/hostname " + home + "\"}"), ProviderDouble.Reply.text(secretText));
                rt.patch("/agents/webhook-receiver", "{\"enabled\":true}");
                rt.post("/agents/webhook-subscriptions", "{\"name\":\"t\",\"deliverTo\":\"chat\",\"prompt\":\"" + secretText
                        + " {url}\"}");
                rt.post("/agents/webhook-subscriptions", "{\"name\":\"d\",\"deliverOnly\":true,\"prompt\":\"{url}\"}");
                String runId = rt.post("/agents/webhooks/t", "{\"url\":\"" + url + "\"}").json().path("runId").asText();
                rt.post("/agents/webhooks/d", "{\"url\":\"" + url + "\"}");
                // "d" is delivered on its request thread while "t" runs on a worker: either record can go out last
                // (List.copyOf takes the list's lock: iterating it bare races the collector's thread adding to it)
                TestRuntime.await(() -> String.join("", List.copyOf(exported)).contains("\"webhook.run\"")
                        && String.join("", List.copyOf(exported)).contains("\"webhook.delivered\""));
                String all = String.join("\n", List.copyOf(exported));
                assertThat(all).contains("\"webhook.accepted\"").contains("\"agent.turn\"").contains(runId)
                        .contains("\"webhook.delivered\"").contains("\"tool_calls\"");
                for (String leak : List.of(secretText, url, "internal.example.com", home.toString(), "/etc/hostname",
                        "sk-azure-test-secret", "otel-collector-key", provider.base(), "\"t\"")) {
                    assertThat(all).as(leak).doesNotContain(leak);
                }
                assertThat(keys).containsOnly("otel-collector-key");
            }
        } finally {
            Log.to(System.err);
            collector.stop(0);
        }
        String log = logs.toString(StandardCharsets.UTF_8);
        assertThat(log).doesNotContain(secretText).doesNotContain("sk-azure-test-secret")
                .doesNotContain("otel-collector-key").doesNotContain("/etc/hostname");
    }
}
