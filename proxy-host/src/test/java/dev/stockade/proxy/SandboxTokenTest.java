package dev.stockade.proxy;

import dev.stockade.policy.compiler.Enforcement;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Several sandboxes on one proxy, told apart by the token in Proxy-Authorization, each with its policies. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SandboxTokenTest {
    static final String TOKEN_A = "token-a-0123456789abcdef";
    static final String TOKEN_B = "token-b-0123456789abcdef";

    @TempDir
    static Path dir;
    static Origins origins;
    static ProxyServer proxy;
    static SandboxRegistry registry;
    static final AuditCollector audit = new AuditCollector();

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "api.test");
        Files.writeString(dir.resolve("a.yaml"), """
                name: sandbox-a
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                """);
        Files.writeString(dir.resolve("b.yaml"), """
                name: sandbox-b
                networkDefaultVerdict: deny
                allowedDomains: []
                """);
        Files.writeString(dir.resolve("sandboxes.json"), """
                {"sandboxes": [
                  {"name": "a", "token": "%s", "policy": ["a.yaml"]},
                  {"name": "b", "token": "%s", "policy": "b.yaml"}
                ]}""".formatted(TOKEN_A, TOKEN_B));
        registry = SandboxRegistry.file(dir.resolve("sandboxes.json"), System.err);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).allowLoopbackOriginsUnsafe(true)
                .maxConnectionsPerSandbox(2).resolve("plain.test", "127.0.0.1").build();
        Enforcement none = Enforcement.denyAll(dev.stockade.policy.eval.ReasonCode.POLICY_UNAVAILABLE, "none");
        proxy = ProxyServer.start(config, () -> none, audit, CredentialStore.empty(), registry);
    }

    @AfterAll
    static void stop() {
        proxy.close();
        registry.close();
        origins.close();
    }

    static String get(String proxyAuthorization, String path) throws Exception {
        return RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort() + path
                + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\n"
                + (proxyAuthorization == null ? "" : "Proxy-Authorization: " + proxyAuthorization + "\r\n")
                + "Connection: close\r\n\r\n");
    }

    static String basic(String user, String token) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + token).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachSandboxIsDecidedByItsOwnPolicies() throws Exception {
        assertThat(get(basic("a", TOKEN_A), "/a")).startsWith("HTTP/1.1 200");
        assertThat(get("Bearer " + TOKEN_B, "/b")).startsWith("HTTP/1.1 403").contains("default-deny");
        AuditEvent a = audit.await(e -> "/a".equals(e.path()), java.time.Duration.ofSeconds(30));
        assertThat(a.sandbox()).isEqualTo("a");
        assertThat(a.policy()).isEqualTo("sandbox-a");
    }

    @Test
    void missingOrUnknownTokenGets407AndTheTokenIsNeverForwarded() throws Exception {
        assertThat(get(null, "/none")).startsWith("HTTP/1.1 407").containsIgnoringCase("Proxy-Authenticate: Basic");
        assertThat(get(basic("a", "wrong-token-0123456789"), "/wrong")).startsWith("HTTP/1.1 407");
        get(basic("a", TOKEN_A), "/fwd");
        assertThat(origins.seen).noneMatch(s -> s.contains("proxy-authorization") || s.contains(TOKEN_A));
    }

    @Test
    void theConnectionCapAppliesPerSandbox() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
                s.setSoTimeout(30_000);
                held.add(s);
                s.getOutputStream().write(("GET http://plain.test:" + origins.plainPort() + "/held HTTP/1.1\r\nHost: plain.test:"
                        + origins.plainPort() + "\r\nProxy-Authorization: Bearer " + TOKEN_A + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(RawHttp.readHead(s.getInputStream())).startsWith("HTTP/1.1 200");
            }
            assertThat(get("Bearer " + TOKEN_A, "/third")).startsWith("HTTP/1.1 429");
            // another sandbox is not held back by a's connections
            assertThat(get("Bearer " + TOKEN_B, "/other")).startsWith("HTTP/1.1 403").contains("default-deny");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
