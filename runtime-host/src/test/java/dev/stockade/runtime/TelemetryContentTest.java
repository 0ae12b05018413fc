package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.runtime.observe.Log;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
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
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Telemetry carries identifiers, flags and counts only: a run full of message content, URLs, paths and
 * credentials reaches an OTLP collector (a stand-in on loopback) without any of them; the structured logs
 * carry no credential or message content either. The stand-in decodes the SDK exporter's protobuf with the
 * OTLP project's own message classes.
 */
class TelemetryContentTest {
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @TempDir
    Path home;

    @Test
    void noContentUrlPathOrCredentialLeaves() throws Exception {
        List<ExportLogsServiceRequest> exported = Collections.synchronizedList(new ArrayList<>());
        List<String> keys = Collections.synchronizedList(new ArrayList<>());
        List<String> types = Collections.synchronizedList(new ArrayList<>());
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/logs", ex -> {
            exported.add(ExportLogsServiceRequest.parseFrom(ex.getRequestBody().readAllBytes()));
            keys.add(ex.getRequestHeaders().getFirst("x-api-key"));
            types.add(ex.getRequestHeaders().getFirst("content-type"));
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
                TestRuntime.await(() -> bodies(List.copyOf(exported)).containsAll(List.of("webhook.run",
                        "webhook.delivered")));
                List<ExportLogsServiceRequest> received = List.copyOf(exported);
                assertThat(bodies(received)).contains("webhook.accepted", "agent.turn", "webhook.delivered");
                List<KeyValue> attributes = records(received).stream().flatMap(r -> r.getAttributesList().stream())
                        .toList();
                assertThat(attributes).extracting(KeyValue::getKey).contains("tool_calls");
                assertThat(attributes).extracting(kv -> kv.getValue().getStringValue()).contains(runId);
                for (KeyValue kv : attributes) {
                    assertThat(identifierFlagOrCount(kv.getValue())).as(kv.toString()).isTrue();
                }
                for (ResourceLogs rl : received.stream().flatMap(r -> r.getResourceLogsList().stream()).toList()) {
                    assertThat(rl.getResource().getAttributesList()).extracting(KeyValue::getKey)
                            .containsExactlyInAnyOrder("service.name", "deployment.environment", "agent.id");
                    assertThat(rl.getScopeLogsList()).extracting(ScopeLogs::getScope)
                            .allSatisfy(scope -> assertThat(scope.getName()).isEqualTo("stockade.runtime"));
                }
                // the decoded messages in text form, so a leak anywhere (resource, scope, body, keys) is seen
                String all = String.join("\n", received.stream().map(ExportLogsServiceRequest::toString).toList());
                for (String leak : List.of(secretText, url, "internal.example.com", home.toString(), "/etc/hostname",
                        "sk-azure-test-secret", "otel-collector-key", provider.base(), "\"t\"")) {
                    assertThat(all).as(leak).doesNotContain(leak);
                }
                assertThat(types).containsOnly("application/x-protobuf");
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

    private static List<LogRecord> records(List<ExportLogsServiceRequest> requests) {
        return requests.stream().flatMap(r -> r.getResourceLogsList().stream())
                .flatMap(rl -> rl.getScopeLogsList().stream()).flatMap(sl -> sl.getLogRecordsList().stream()).toList();
    }

    private static List<String> bodies(List<ExportLogsServiceRequest> requests) {
        return records(requests).stream().map(r -> r.getBody().getStringValue()).toList();
    }

    private static boolean identifierFlagOrCount(AnyValue v) {
        return switch (v.getValueCase()) {
            case BOOL_VALUE, INT_VALUE -> true;
            case STRING_VALUE -> UUID.matcher(v.getStringValue()).matches();
            default -> false;
        };
    }
}
