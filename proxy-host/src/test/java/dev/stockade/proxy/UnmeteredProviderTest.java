package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox calling a model provider's API host through the egress proxy, not through the platform's metered
 * {@code /llm} proxy: every audit line of it, allowed or denied, plain or intercepted, carries the flag; a line to any
 * other host does not. The provider's name resolves to a loopback origin, so nothing leaves the machine.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class UnmeteredProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    static Origins origins;
    static ProxyServer proxy;
    static final AuditCollector audit = new AuditCollector();
    static Path auditFile;
    static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "api.openai.com");
        PolicySource policy = TestPolicies.compile(dir, "direct-models", """
                name: direct-models
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: api.openai.com
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: POST
                        path: /v1/**
                  - pattern: plain.test
                    verdict: allow
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).allowLoopbackOriginsUnsafe(true)
                .extraTrustPem(origins.originCaPem).resolve("api.openai.com", "127.0.0.1")
                .resolve("plain.test", "127.0.0.1").resolve("api.anthropic.com", "127.0.0.1").build();
        auditFile = dir.resolve("audit.jsonl");
        AuditSink file = AuditSink.file(auditFile);
        AuditSink both = e -> {
            file.record(e);
            audit.record(e);
        };
        proxy = ProxyServer.start(config, policy, both, CredentialStore.empty());
        client = HttpClient.newBuilder().proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", proxy.port())))
                .sslContext(ForwardProxyTest.trusting(proxy.caCertificate())).connectTimeout(WAIT).build();
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (origins != null) {
            origins.close();
        }
    }

    private static int post(String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4o\"}")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void plainHttpToAProviderHostIsFlaggedWhenAllowed() throws Exception {
        assertThat(post("http://api.openai.com:" + origins.plainPort() + "/v1/chat/completions")).isEqualTo(200);
        AuditEvent line = audit.await(e -> "http".equals(e.listener()) && "api.openai.com".equals(e.host()), WAIT);
        assertThat(line.verdict()).isEqualTo("allow");
        assertThat(line.unmeteredProvider()).contains(ModelVendor.OPENAI);
        assertThat(fileLine("\"listener\":\"http\"", "api.openai.com").path("unmeteredProvider").asText())
                .isEqualTo("openai");
    }

    @Test
    void anInterceptedTunnelsConnectionAndEachRequestAreFlagged() throws Exception {
        assertThat(post("https://api.openai.com:" + origins.tlsPort() + "/v1/embeddings")).isEqualTo(200);
        AuditEvent connect = audit.await(e -> "connect".equals(e.listener()) && "api.openai.com".equals(e.host()),
                WAIT);
        AuditEvent request = audit.await(e -> "intercepted".equals(e.listener()) && "/v1/embeddings".equals(e.path()),
                WAIT);
        assertThat(List.of(connect, request)).allSatisfy(e -> {
            assertThat(e.verdict()).isEqualTo("allow");
            assertThat(e.unmeteredProvider()).contains(ModelVendor.OPENAI);
        });
    }

    @Test
    void aDeniedCallToAProviderHostIsFlaggedToo() throws Exception {
        assertThat(post("http://api.anthropic.com:" + origins.plainPort() + "/v1/messages")).isEqualTo(403);
        AuditEvent line = audit.await(e -> "api.anthropic.com".equals(e.host()), WAIT);
        assertThat(line.verdict()).isEqualTo("deny");
        assertThat(line.unmeteredProvider()).contains(ModelVendor.ANTHROPIC);
        assertThat(fileLine("\"verdict\":\"deny\"", "api.anthropic.com").path("unmeteredProvider").asText())
                .isEqualTo("anthropic");
    }

    @Test
    void anyOtherHostIsNotFlagged() throws Exception {
        assertThat(post("http://plain.test:" + origins.plainPort() + "/v1/chat/completions")).isEqualTo(200);
        AuditEvent line = audit.await(e -> "plain.test".equals(e.host()), WAIT);
        assertThat(line.unmeteredProvider()).isEmpty();
        assertThat(fileLine("\"listener\":\"http\"", "plain.test").has("unmeteredProvider")).isFalse();
    }

    /** The audit file's line for {@code host} holding {@code marker}; the sink writes before the collector sees it. */
    private static com.fasterxml.jackson.databind.JsonNode fileLine(String marker, String host) throws Exception {
        for (String line : Files.readAllLines(auditFile)) {
            if (line.contains(marker) && line.contains("\"host\":\"" + host + "\"")) {
                return JSON.readTree(line);
            }
        }
        throw new AssertionError("no audit line for " + host + " with " + marker);
    }
}
