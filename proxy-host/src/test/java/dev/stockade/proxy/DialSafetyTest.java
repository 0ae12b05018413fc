package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dial guard with the UNSAFE loopback setting OFF: the policy allows every target below, so only
 * the guard stands between the agent and loopback, metadata and unspecified addresses.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DialSafetyTest {
    @TempDir
    static Path dir;
    static ProxyServer proxy;
    static final AuditCollector audit = new AuditCollector();

    @BeforeAll
    static void start() throws Exception {
        // the policy allows every host upstream: only the dial guard stands in the way
        PolicySource decider = TestPolicies.compile(dir, "open", """
                name: open
                networkDefaultVerdict: allow
                networkDefaultTransport: upstream
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0)
                .resolve("rebind.test", "127.0.0.1").build();
        proxy = ProxyServer.start(config, decider, audit, CredentialStore.empty());
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.2", "[::1]", "169.254.169.254", "0.0.0.0", "[::ffff:127.0.0.1]",
            "[::ffff:169.254.169.254]", "[::ffff:7f00:1]", "10.1.2.3", "rebind.test"})
    void plainHttpToAForbiddenAddressIsRefused(String authority) throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "GET http://" + authority + ":9/ HTTP/1.1\r\nHost: "
                + authority + ":9\r\nConnection: close\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403").contains("dial-refused");
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.2", "[::1]", "169.254.169.254", "0.0.0.0", "[::ffff:127.0.0.1]"})
    void connectToAForbiddenAddressIsRefused(String authority) throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "CONNECT " + authority + ":443 HTTP/1.1\r\nHost: " + authority
                + ":443\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403").contains("dial-refused");
        // audited in the core's one normal form: [::ffff:127.0.0.1] is 127.0.0.1
        String host = dev.stockade.policy.eval.HostName.of(authority).value();
        AuditEvent line = audit.await(e -> host.equals(e.host()) && EgressReason.DIAL_REFUSED == e.reason(),
                java.time.Duration.ofSeconds(30));
        assertThat(line.verdict()).isEqualTo("deny");
    }
}
