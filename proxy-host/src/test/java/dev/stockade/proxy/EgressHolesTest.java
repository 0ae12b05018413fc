package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The egress bypasses of issue 12, each tried as an agent would with raw bytes against a real proxy
 * and a real origin on loopback: a header that switched GraphQL fences off, servlet path parameters,
 * requests trickled on a kept-alive connection, and the proxy's own admin listener behind an
 * IPv4-mapped loopback address.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EgressHolesTest {
    private static final String MUTATION = "{\"query\":\"mutation { deleteRepo { id } }\"}";

    @TempDir
    static Path dir;
    static Origins origins;
    static ProxyServer proxy;
    static final AuditCollector audit = new AuditCollector();

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "plain.test");
        PolicySource decider = TestPolicies.compile(dir, "holes", """
                name: holes
                networkDefaultVerdict: allow
                allowedDomains:
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - {method: GET, path: /graphql, graphql: {operationType: subscription, fields: [issueUpdated]}}
                      - {method: POST, path: /graphql, graphql: {operationType: subscription, fields: [issueUpdated]}}
                      - {method: GET, path: "/repos/**"}
                      - {method: POST, path: "/repos/**"}
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).adminPort(0)
                .allowLoopbackOriginsUnsafe(true).extraTrustPem(origins.originCaPem).resolve("plain.test", "127.0.0.1")
                // 5 s, not the 2 s it was: in a tunnel the head deadline runs from the tunnel's opening, through the
                // client's TLS handshake, which a loaded machine can take seconds over (the cut-off tests sit it out)
                .requestHeadTimeout(Duration.ofSeconds(5)).requestBodyTimeout(Duration.ofSeconds(5))
                .idleTimeout(Duration.ofSeconds(60)).sandbox("sb-holes").build();
        proxy = ProxyServer.start(config, decider, audit, CredentialStore.empty());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        origins.close();
    }

    private static String target(String path) {
        return "http://plain.test:" + origins.plainPort() + path;
    }

    // ---- one definition of a websocket upgrade ------------------------------------------------------

    @Test
    void anUpgradeHeaderWithoutTheRestOfAnUpgradeDoesNotSwitchTheFenceOff() throws Exception {
        String post = "POST " + target("/graphql") + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort()
                + "\r\nUpgrade: websocket\r\nContent-Type: application/json\r\nContent-Length: " + MUTATION.length()
                + "\r\n\r\n" + MUTATION;
        assertThat(RawHttp.exchange(proxy.port(), post)).startsWith("HTTP/1.1 403");
        String get = "GET " + target("/graphql?query=mutation%20%7B%20deleteRepo%20%7B%20id%20%7D%20%7D")
                + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\n\r\n";
        assertThat(RawHttp.exchange(proxy.port(), get)).startsWith("HTTP/1.1 403");
    }

    @Test
    void anotherProtocolUpgradeIsForwardedAsAnOrdinaryRequestWithoutUpgrade() throws Exception {
        String h2c = "GET " + target("/repos/acme") + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort()
                + "\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n";
        String answer = RawHttp.exchange(proxy.port(), h2c);
        assertThat(answer).startsWith("HTTP/1.1 200").contains("GET /repos/acme");
        assertThat(answer.toLowerCase()).doesNotContain("upgrade:").doesNotContain("http2-settings");
    }

    // ---- one rule of what a path is -------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"/repos/..;/user", "/repos/x/..;/..;/user", "/repos/.;/..;/user", "/repos/%2e%2e;/user",
        "/repos/..;jsessionid=1/user", "/repos//../user", "/repos/%c0%ae%c0%ae/user"})
    void servletPathParametersDoNotWalkOutOfAPathRule(String path) throws Exception {
        String get = "GET " + target(path) + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\n\r\n";
        assertThat(RawHttp.exchange(proxy.port(), get)).startsWith("HTTP/1.1 403");
        assertThat(origins.seen).noneMatch(seen -> seen.contains(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain.test..", "plain.test...", ".plain.test", "plain..test"})
    void aHostWithAnEmptyLabelIsNotTheHostWithoutIt(String host) throws Exception {
        String get = "GET http://" + host + ":" + origins.plainPort() + "/repos/a HTTP/1.1\r\nHost: " + host + ":"
                + origins.plainPort() + "\r\n\r\n";
        assertThat(RawHttp.exchange(proxy.port(), get)).startsWith("HTTP/1.1 403").contains("invalid-request");
    }

    // ---- every request head and body within its bound ---------------------------------------------------

    @Test
    void aSecondRequestHeadTrickledOnAKeptAliveConnectionIsCutOff() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            firstRequestThenTrickle(s, s.getInputStream(), s.getOutputStream(), target("/repos/a"),
                    origins.plainPort(), "GET " + target("/repos/b") + " HTTP/1.1\r\n", "X-Slow: a\r\n");
        }
    }

    @Test
    void aBodyTrickledOnAKeptAliveConnectionIsCutOff() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            firstRequestThenTrickle(s, s.getInputStream(), s.getOutputStream(), target("/repos/a"),
                    origins.plainPort(), "POST " + target("/repos/b") + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort()
                            + "\r\nContent-Length: 1000\r\n\r\n", "x");
        }
    }

    @Test
    void aRequestHeadTrickledInsideAnInterceptedTunnelIsCutOff() throws Exception {
        try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            raw.setSoTimeout(30_000);
            int port = origins.tlsPort();
            raw.getOutputStream().write(("CONNECT plain.test:" + port + " HTTP/1.1\r\nHost: plain.test:" + port
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(RawHttp.readHead(raw.getInputStream())).startsWith("HTTP/1.1 200");
            SSLSocket tls = (SSLSocket) ForwardProxyTest.trusting(proxy.caCertificate()).getSocketFactory()
                    .createSocket(raw, "plain.test", port, true);
            tls.startHandshake();
            firstRequestThenTrickle(tls, tls.getInputStream(), tls.getOutputStream(), "/repos/a", port,
                    "GET /repos/b HTTP/1.1\r\n", "X-Slow: a\r\n");
        }
    }

    /**
     * Sends one complete keep-alive request, reads its answer, then trickles {@code start} and a piece
     * every 200 ms: bytes keep arriving, so only a deadline (5 s here) ends it. The connection must be
     * closed well within the 60 s idle timeout the bytes keep resetting.
     */
    private static void firstRequestThenTrickle(Socket s, InputStream in, OutputStream out, String first,
                                                int port, String start, String piece) throws Exception {
        s.setSoTimeout(30_000);
        out.write(("GET " + first + " HTTP/1.1\r\nHost: plain.test:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertThat(RawHttp.readHead(in)).startsWith("HTTP/1.1 200");
        out.write(start.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        long began = System.nanoTime();
        boolean closed = false;
        while (!closed && System.nanoTime() - began < TimeUnit.SECONDS.toNanos(40)) {
            try {
                out.write(piece.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(200); // the attack: one piece of the head every 200 ms, which an idle timer never cuts
                s.setSoTimeout(1);
                closed = in.read() < 0;
            } catch (java.net.SocketTimeoutException e) {
                // nothing to read yet: still open
            } catch (IOException e) {
                closed = true; // reset by the proxy's close
            } finally {
                if (!s.isClosed()) {
                    s.setSoTimeout(30_000);
                }
            }
        }
        assertThat(closed).as("the proxy closes a connection whose request never completes").isTrue();
        audit.await(e -> EgressReason.REQUEST_TIMEOUT == e.reason(), Duration.ofSeconds(30));
    }

    // ---- never the proxy itself -------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]", "127.0.0.1",
        "127.0.0.2", "[::1]", "localhost", "2130706433", "0x7f000001", "127.1", "0", "[::]"})
    void theAdminListenerIsNeverReachedThroughTheProxy(String host) throws Exception {
        String halt = "POST http://" + host + ":" + proxy.adminPort() + "/halt HTTP/1.1\r\nHost: " + host + ":"
                + proxy.adminPort() + "\r\nContent-Length: 0\r\n\r\n";
        String answer = RawHttp.exchange(proxy.port(), halt);
        assertThat(answer).doesNotStartWith("HTTP/1.1 2");
        assertThat(proxy.halted()).as(answer).isFalse();
    }

    // ---- bytes pipelined behind a CONNECT belong to the tunnel ------------------------------------------

    @Test
    void aRequestPipelinedBehindAConnectIsTunnelDataNeverAProxyRequest() throws Exception {
        String path = "/repos/pipelined-after-connect";
        String connect = "CONNECT plain.test:" + origins.tlsPort() + " HTTP/1.1\r\nHost: plain.test:"
                + origins.tlsPort() + "\r\n\r\n";
        String smuggled = "GET " + target(path) + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort()
                + "\r\n\r\n";
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setSoTimeout(30_000); // the tunnel ends at the 5 s head deadline: room for a late timer
            OutputStream out = s.getOutputStream();
            out.write((connect + smuggled).getBytes(StandardCharsets.ISO_8859_1)); // one write, before any answer
            out.flush();
            InputStream in = s.getInputStream();
            assertThat(RawHttp.readHead(in)).startsWith("HTTP/1.1 200");
            // The tunnel expects TLS; the plain bytes are not a handshake, so the tunnel ends.
            in.readAllBytes();
        }
        Thread.sleep(300); // an audit line of a request handled after the close would land by now
        assertThat(origins.seen).noneMatch(r -> r.contains("pipelined-after-connect"));
        assertThat(audit.all()).noneMatch(e -> path.equals(e.path()));
        assertThat(audit.all()).anyMatch(e -> "CONNECT".equals(e.method()) && "allow".equals(e.verdict())
                && e.port() == origins.tlsPort());
    }
}
