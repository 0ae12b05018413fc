package dev.stockade.proxy;

import dev.stockade.policy.compiler.Enforcement;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** WebSocket-style upgrades inside an intercepted tunnel, idle timeout, the connection cap, credential files. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class UpgradeAndLimitsTest {
    @TempDir
    static Path dir;
    static Origins origins;
    static SSLServerSocket upgradeOrigin;
    static Thread upgradeThread;
    static ProxyServer proxy;
    static final AuditCollector audit = new AuditCollector();

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "ws.test");
        upgradeOrigin = (SSLServerSocket) origins.sslContext.getServerSocketFactory()
                .createServerSocket(0, 8, InetAddress.getLoopbackAddress());
        upgradeThread = new Thread(UpgradeAndLimitsTest::serveUpgrades, "upgrade-origin");
        upgradeThread.setDaemon(true);
        upgradeThread.start();
        PolicySource decider = TestPolicies.compile(dir, "upgrade", """
                name: test-policy
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: ws.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: GET
                        path: /graphql
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).allowLoopbackOriginsUnsafe(true)
                .extraTrustPem(origins.originCaPem).resolve("ws.test", "127.0.0.1").resolve("plain.test", "127.0.0.1")
                .idleTimeout(Duration.ofSeconds(30)).sandbox("sb-1").build();
        proxy = ProxyServer.start(config, decider, audit, CredentialStore.empty());
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        upgradeOrigin.close();
        origins.close();
    }

    /** Answers an upgrade with 101, then echoes raw bytes: what a WebSocket origin looks like on the wire. */
    static void serveUpgrades() {
        while (!upgradeOrigin.isClosed()) {
            try (Socket s = upgradeOrigin.accept()) {
                InputStream in = s.getInputStream();
                String head = RawHttp.readHead(in);
                OutputStream out = s.getOutputStream();
                if (!head.toLowerCase().contains("upgrade: websocket")) {
                    out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    continue;
                }
                out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                byte[] buf = new byte[1024];
                for (int n = in.read(buf); n > 0; n = in.read(buf)) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (Exception e) {
                // connection ended; keep serving until the socket closes
            }
        }
    }

    /** Opens an intercepted tunnel to ws.test through the proxy and returns the TLS socket inside it. */
    static SSLSocket tunnel(Socket raw) throws Exception {
        int port = upgradeOrigin.getLocalPort();
        raw.getOutputStream().write(("CONNECT ws.test:" + port + " HTTP/1.1\r\nHost: ws.test:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        assertThat(RawHttp.readHead(raw.getInputStream())).startsWith("HTTP/1.1 200");
        SSLSocket tls = (SSLSocket) ForwardProxyTest.trusting(proxy.caCertificate()).getSocketFactory()
                .createSocket(raw, "ws.test", port, true);
        tls.startHandshake();
        return tls;
    }

    @Test
    void upgradeIsDecidedThenSplicedBothWays() throws Exception {
        int port = upgradeOrigin.getLocalPort();
        try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            raw.setSoTimeout(30_000);
            SSLSocket tls = tunnel(raw);
            tls.getOutputStream().write(("GET /graphql HTTP/1.1\r\nHost: ws.test:" + port + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String head = RawHttp.readHead(tls.getInputStream());
            assertThat(head).as("audit: %s", audit.all()).startsWith("HTTP/1.1 101");
            byte[] frame = "raw-frame-bytes".getBytes(StandardCharsets.US_ASCII);
            tls.getOutputStream().write(frame);
            tls.getOutputStream().flush();
            assertThat(tls.getInputStream().readNBytes(frame.length)).isEqualTo(frame);
        }
        AuditEvent line = audit.await(e -> "/graphql".equals(e.path()), Duration.ofSeconds(30));
        assertThat(line.status()).isEqualTo(101);
        assertThat(line.sandbox()).isEqualTo("sb-1");
    }

    @Test
    void deniedUpgradeNeverReachesTheOrigin() throws Exception {
        int port = upgradeOrigin.getLocalPort();
        try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            raw.setSoTimeout(30_000);
            SSLSocket tls = tunnel(raw);
            tls.getOutputStream().write(("GET /other/ws HTTP/1.1\r\nHost: ws.test:" + port
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(RawHttp.readHead(tls.getInputStream())).startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        // its own proxy with a short idle timeout, so that a slow TLS handshake elsewhere is never cut off
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).idleTimeout(Duration.ofMillis(400)).build();
        Enforcement none = Enforcement.denyAll(dev.stockade.policy.eval.ReasonCode.DEFAULT_DENY, "none");
        try (ProxyServer idle = ProxyServer.start(config, () -> none, new AuditCollector(), CredentialStore.empty());
             Socket raw = new Socket(InetAddress.getLoopbackAddress(), idle.port())) {
            raw.setSoTimeout(30_000);
            // send nothing: the proxy closes after the idle timeout, well before the read timeout
            assertThat(readEnd(raw.getInputStream())).isEqualTo(-1);
        }
    }

    @Test
    void aTricklingRequestHeadIsCutOffAndAudited() throws Exception {
        AuditCollector own = new AuditCollector();
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).idleTimeout(Duration.ofSeconds(30))
                .requestHeadTimeout(Duration.ofMillis(300)).build();
        Enforcement none = Enforcement.denyAll(dev.stockade.policy.eval.ReasonCode.DEFAULT_DENY, "none");
        try (ProxyServer slow = ProxyServer.start(config, () -> none, own, CredentialStore.empty());
             Socket raw = new Socket(InetAddress.getLoopbackAddress(), slow.port())) {
            raw.setSoTimeout(30_000);
            raw.getOutputStream().write("GET http://plain.test/ HTTP/1.1\r\nHost: pla".getBytes(StandardCharsets.US_ASCII));
            raw.getOutputStream().flush();
            assertThat(readEnd(raw.getInputStream())).isEqualTo(-1);
            own.await(e -> EgressReason.REQUEST_TIMEOUT == e.reason(), Duration.ofSeconds(30));
        }
    }

    /** The head timeout starts again when a tunnel opens: a tunnel that never sends a request is closed. */
    @Test
    void anInterceptedTunnelThatSendsNoRequestIsClosedAndAudited() throws Exception {
        AuditCollector own = new AuditCollector();
        PolicySource policy = TestPolicies.compile(dir, "silent-tunnel", """
                name: silent-tunnel
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: api.test
                    verdict: allow
                    transport: upstream
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("silent-data")).port(0).idleTimeout(Duration.ofSeconds(60))
                // the deadline runs from the tunnel's opening through the TLS handshake: 5 s, room for a loaded
                // machine (the test sits it out once)
                .requestHeadTimeout(Duration.ofSeconds(5)).allowLoopbackOriginsUnsafe(true)
                .resolve("api.test", "127.0.0.1").build();
        try (ProxyServer quiet = ProxyServer.start(config, policy, own, CredentialStore.empty());
             Socket raw = new Socket(InetAddress.getLoopbackAddress(), quiet.port())) {
            raw.setSoTimeout(30_000);
            raw.getOutputStream().write("CONNECT api.test:443 HTTP/1.1\r\nHost: api.test:443\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            raw.getOutputStream().flush();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int c = raw.getInputStream().read();
                assertThat(c).as("CONNECT answer so far: %s", head).isNotNegative();
                head.append((char) c);
            }
            assertThat(head.toString()).startsWith("HTTP/1.1 200");
            javax.net.ssl.SSLContext tls = ForwardProxyTest.trusting(quiet.caCertificate());
            try (SSLSocket inner = (SSLSocket) tls.getSocketFactory().createSocket(raw, "api.test", 443, false)) {
                inner.setSoTimeout(30_000);
                inner.startHandshake(); // the tunnel is open and its TLS done; now say nothing
                assertThat(readEnd(inner.getInputStream())).isEqualTo(-1);
            }
            AuditEvent line = own.await(e -> EgressReason.REQUEST_TIMEOUT == e.reason(), Duration.ofSeconds(30));
            assertThat(line.listener()).isEqualTo("intercepted");
            assertThat(line.host()).isEqualTo("api.test");
        }
    }

    @Test
    void connectionsBeyondTheSandboxCapAreRefused() throws Exception {
        // its own proxy: connections other tests closed may not be counted down yet on the shared one
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).allowLoopbackOriginsUnsafe(true)
                .resolve("plain.test", "127.0.0.1").maxConnectionsPerSandbox(3).build();
        PolicySource policy = TestPolicies.compile(dir, "cap", """
                name: cap
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                """);
        List<Socket> held = new java.util.ArrayList<>();
        try (ProxyServer proxy = ProxyServer.start(config, policy, audit, CredentialStore.empty())) {
            for (int i = 0; i < 3; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
                s.setSoTimeout(30_000);
                held.add(s);
                // a served keep-alive request proves the proxy counted this connection
                s.getOutputStream().write(("GET http://plain.test:" + origins.plainPort() + "/held HTTP/1.1\r\nHost: plain.test:"
                        + origins.plainPort() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                assertThat(RawHttp.readHead(s.getInputStream())).startsWith("HTTP/1.1 200");
            }
            String first = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort()
                    + "/cap HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\n\r\n");
            assertThat(first).isEmpty();
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void credentialFileLoadsWithoutLeakingSecretsInErrors() throws Exception {
        Path good = dir.resolve("creds.json");
        Files.writeString(good, """
                {"credentials":[{"name":"gh","secret":"ghp_supersecret","domains":["api.github.com","*.github.com"],
                  "header":"Authorization: Bearer {secret}"}]}""");
        CredentialStore store = CredentialStore.file(good);
        Credential c = store.byName("gh").orElseThrow();
        assertThat(c.id()).isEqualTo(Credential.idFor("gh"));
        assertThat(store.byId(UUID.nameUUIDFromBytes("gh".getBytes(StandardCharsets.UTF_8)))).contains(c);
        assertThat(c.covers("api.github.com", 443)).isTrue();
        assertThat(c.covers("uploads.github.com", 443)).isTrue();
        assertThat(c.covers("api.github.com", 22)).as("a domain without a port means 443 only").isFalse();
        assertThat(c.covers("github.com.evil.test", 443)).isFalse();
        assertThat(c.headerValue()).isEqualTo("Bearer ghp_supersecret");

        // a wildcard never matches an address: `*` sends the secret to names, never to an IP literal
        Credential anyName = new Credential(UUID.randomUUID(), "any", "s", List.of("*", "*.internal"), null);
        assertThat(anyName.covers("api.github.com", 443)).isTrue();
        for (String address : List.of("127.0.0.1", "10.0.0.5", "169.254.169.254", "::1", "fd00::1")) {
            assertThat(anyName.covers(address, 443)).as(address).isFalse();
        }
        Credential exact = new Credential(UUID.randomUUID(), "ip", "s", List.of("10.0.0.5"), null);
        assertThat(exact.covers("10.0.0.5", 443)).as("an address named exactly").isTrue();

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"credentials\":[{\"name\":\"x\",\"secret\":\"ghp_leakme\",\"domains\":[], \"header\":\"nocolon\"}]}");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> CredentialStore.file(bad)))
                .isInstanceOf(java.io.IOException.class).hasMessageNotContaining("ghp_leakme");
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"credentials\":[{\"secret\":\"ghp_leak2\" ");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> CredentialStore.file(broken)))
                .isInstanceOf(java.io.IOException.class).hasMessageNotContaining("ghp_leak2");
    }

    private static int readEnd(InputStream in) throws Exception {
        try {
            return in.read();
        } catch (SocketException reset) {
            return -1;
        }
    }

}
