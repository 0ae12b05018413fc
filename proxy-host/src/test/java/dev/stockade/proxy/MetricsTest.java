package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The admin {@code GET /metrics}: Micrometer's Prometheus text, moved by real traffic, reloads and halts. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class MetricsTest {
    @TempDir
    static Path dir;
    static Origins origins;
    static PolicySource policy;
    static ProxyServer proxy;
    static final HttpClient admin = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "unused.test");
        policy = TestPolicies.compile(dir, "metrics", """
                name: metrics
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).adminPort(0)
                .allowLoopbackOriginsUnsafe(true).resolve("plain.test", "127.0.0.1").build();
        proxy = ProxyServer.start(config, policy, new AuditCollector(), CredentialStore.empty());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        origins.close();
    }

    static String scrape() throws Exception {
        HttpResponse<String> r = admin.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + proxy.adminPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        return r.body();
    }

    /** The value of the sample whose name and labels are exactly {@code series}; 0 when absent. */
    static double value(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).strip());
            }
        }
        return 0;
    }

    @Test
    void decisionsBytesAndLatencyAreCountedInPrometheusText() throws Exception {
        String deny = "stockade_proxy_decisions_total{listener=\"http\",reason=\"default-deny\",verdict=\"deny\"}";
        String allow = "stockade_proxy_decisions_total{listener=\"http\",reason=\"entry-allow\",verdict=\"allow\"}";
        String before = scrape();
        String ok = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort()
                + "/m HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\nConnection: close\r\n\r\n");
        assertThat(ok).startsWith("HTTP/1.1 200");
        String no = RawHttp.exchange(proxy.port(), "GET http://elsewhere.test/ HTTP/1.1\r\nHost: elsewhere.test\r\n"
                + "Connection: close\r\n\r\n");
        assertThat(no).startsWith("HTTP/1.1 403");
        // an allowed exchange is counted as its relay finishes, which can be just after the client has the answer
        Await.until("the allowed exchange to be counted", () -> {
            try {
                return value(scrape(), allow) > value(before, allow);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        String after = scrape();

        assertThat(after).contains("# TYPE stockade_proxy_decisions_total counter");
        assertThat(after).contains("# TYPE stockade_proxy_origin_pool_idle gauge");
        assertThat(value(after, allow) - value(before, allow)).isEqualTo(1);
        assertThat(value(after, deny) - value(before, deny)).isEqualTo(1);
        String bytesOut = "stockade_proxy_bytes_total{direction=\"out\"}";
        assertThat(value(after, bytesOut) - value(before, bytesOut))
                .as("the echoed body").isGreaterThanOrEqualTo(ok.length() - ok.indexOf("\r\n\r\n") - 4);
        String latency = "stockade_proxy_decision_latency_seconds_count{kind=\"request\"}";
        assertThat(value(after, latency) - value(before, latency)).isEqualTo(2);
        assertThat(after).contains("# TYPE stockade_proxy_connections_open gauge");
        assertThat(value(after, "stockade_proxy_halted")).isZero();
    }

    @Test
    void reloadsAndHaltsAreCounted() throws Exception {
        String valid = "stockade_proxy_policy_reloads_total{outcome=\"valid\"}";
        String invalid = "stockade_proxy_policy_reloads_total{outcome=\"invalid\"}";
        String before = scrape();
        policy.reload();
        Path file = dir.resolve("metrics.yaml");
        String good = Files.readString(file);
        Files.writeString(file, "name: [not, a, name]\n");
        try {
            assertThat(policy.reload().valid()).isFalse();
        } finally {
            Files.writeString(file, good);
            assertThat(policy.reload().valid()).isTrue();
        }
        long halts = proxy.haltsApplied();
        URI halt = URI.create("http://127.0.0.1:" + proxy.adminPort() + "/halt");
        admin.send(HttpRequest.newBuilder(halt).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        String halted;
        try {
            assertThat(proxy.awaitHaltApplied(halts, 30_000)).isGreaterThan(halts);
            halted = scrape();
        } finally {
            admin.send(HttpRequest.newBuilder(halt).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        }
        assertThat(value(halted, valid) - value(before, valid)).isEqualTo(2);
        assertThat(value(halted, invalid) - value(before, invalid)).isEqualTo(1);
        assertThat(value(halted, "stockade_proxy_halts_total") - value(before, "stockade_proxy_halts_total")).isEqualTo(1);
        assertThat(value(halted, "stockade_proxy_halted")).isEqualTo(1);
        assertThat(value(scrape(), "stockade_proxy_halted")).isZero();
    }
}
