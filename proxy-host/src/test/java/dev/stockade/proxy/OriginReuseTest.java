package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Origin connection reuse: intercepted requests go over kept-alive origin connections from the pool,
 * counted at a real loopback TLS origin that accepts, answers keep-alive, {@code Connection: close}
 * or a body cut short, and notices when the proxy closes a connection.
 */
class OriginReuseTest {

    @TempDir
    Path dir;
    Origins certs;
    TlsOrigin origin;
    TlsOrigin plain;
    ProxyServer proxy;
    PolicySource decider;
    final AuditCollector audit = new AuditCollector();

    @BeforeEach
    void start() throws Exception {
        certs = new Origins(dir, "api.test");
        origin = new TlsOrigin(certs, true);
        plain = new TlsOrigin(certs, false);
        decider = TestPolicies.compile(dir, "reuse", """
                name: reuse
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: api.test
                    verdict: allow
                    transport: upstream
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: GET
                        path: /keep/**
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0)
                .allowLoopbackOriginsUnsafe(true).extraTrustPem(certs.originCaPem)
                .resolve("api.test", "127.0.0.1").resolve("plain.test", "127.0.0.1").build();
        proxy = ProxyServer.start(config, decider, audit, CredentialStore.of(List.of()));
    }

    @AfterEach
    void stop() throws IOException {
        if (proxy != null) {
            proxy.close();
        }
        origin.close();
        plain.close();
        certs.close();
    }

    @Test
    void twoSequentialRequestsInOneTunnelReuseOneOriginConnection() throws Exception {
        try (Tunnel t = new Tunnel()) {
            assertThat(t.get("/keep/1")).startsWith("HTTP/1.1 200").endsWith("keep /keep/1\n");
            assertThat(t.get("/keep/2")).startsWith("HTTP/1.1 200").endsWith("keep /keep/2\n");
        }
        assertThat(origin.requests.get()).isEqualTo(2);
        assertThat(origin.accepted.get()).isEqualTo(1);
        // every request is still decided and audited on its own
        audit.await(e -> "/keep/2".equals(e.path()) && "intercepted".equals(e.listener())
                && e.status() == 200, Duration.ofSeconds(30));
    }

    @Test
    void plainForwardRequestsReuseOneOriginConnectionAndAreEachDecided() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setSoTimeout(30_000);
            String authority = "plain.test:" + plain.port();
            for (String path : List.of("/keep/1", "/denied", "/keep/2")) {
                s.getOutputStream().write(("GET http://" + authority + path + " HTTP/1.1\r\nHost: " + authority
                        + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                String r = RawHttp.readHead(s.getInputStream());
                assertThat(r).startsWith(path.equals("/denied") ? "HTTP/1.1 403" : "HTTP/1.1 200");
            }
        }
        assertThat(plain.requests.get()).isEqualTo(2);
        assertThat(plain.accepted.get()).isEqualTo(1);
    }

    @Test
    void anOriginConnectionCloseIsHonoured() throws Exception {
        try (Tunnel t = new Tunnel()) {
            String first = t.get("/close/1");
            assertThat(first).startsWith("HTTP/1.1 200").endsWith("close /close/1\n");
            // the origin's close is hop-by-hop: the client's connection stays usable
            assertThat(first.toLowerCase()).doesNotContain("connection: close");
            assertThat(t.get("/keep/2")).startsWith("HTTP/1.1 200").endsWith("keep /keep/2\n");
        }
        assertThat(origin.accepted.get()).isEqualTo(2);
    }

    @Test
    void aHaltClosesPooledConnections() throws Exception {
        try (Tunnel t = new Tunnel()) {
            assertThat(t.get("/keep/1")).startsWith("HTTP/1.1 200");
        }
        assertThat(origin.closedByProxy.getCount()).isEqualTo(1); // still pooled, open at the origin
        proxy.halt();
        assertThat(origin.closedByProxy.await(30, TimeUnit.SECONDS)).isTrue();
        proxy.resume();
        try (Tunnel t = new Tunnel()) {
            assertThat(t.get("/keep/2")).startsWith("HTTP/1.1 200");
        }
        assertThat(origin.accepted.get()).isEqualTo(2);
    }

    /** A connection opened under the old program never serves the new one: a reload empties the pool. */
    @Test
    void aReloadClosesPooledConnections() throws Exception {
        try (Tunnel t = new Tunnel()) {
            assertThat(t.get("/keep/1")).startsWith("HTTP/1.1 200");
        }
        assertThat(origin.closedByProxy.getCount()).isEqualTo(1); // still pooled, open at the origin
        assertThat(decider.reload().valid()).isTrue();
        assertThat(origin.closedByProxy.await(30, TimeUnit.SECONDS)).isTrue();
        try (Tunnel t = new Tunnel()) {
            assertThat(t.get("/keep/2")).startsWith("HTTP/1.1 200");
        }
        assertThat(origin.accepted.get()).isEqualTo(2);
    }

    @Test
    void aResponseCutShortIsAnErrorAndItsConnectionIsNotReused() throws Exception {
        try (Tunnel t = new Tunnel()) {
            String cut = t.getUntilClose("/short/1");
            assertThat(cut).startsWith("HTTP/1.1 200").endsWith("0123456789");
        }
        AuditEvent e = audit.await(a -> "/short/1".equals(a.path()), Duration.ofSeconds(30));
        assertThat(e.reason()).isEqualTo(EgressReason.ORIGIN_CUT_SHORT);
        try (Tunnel t = new Tunnel()) {
            assertThat(t.get("/keep/2")).startsWith("HTTP/1.1 200");
            assertThat(t.get("/keep/3")).startsWith("HTTP/1.1 200");
        }
        assertThat(origin.accepted.get()).isEqualTo(2);
    }

    /** A CONNECT tunnel through the proxy with TLS to the minted leaf, speaking keep-alive HTTP/1.1. */
    final class Tunnel implements AutoCloseable {
        final SSLSocket tls;

        Tunnel() throws Exception {
            Socket raw = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
            raw.setSoTimeout(30_000);
            String authority = "api.test:" + origin.port();
            raw.getOutputStream().write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertThat(RawHttp.readHead(raw.getInputStream())).startsWith("HTTP/1.1 200");
            tls = (SSLSocket) ForwardProxyTest.trusting(proxy.caCertificate()).getSocketFactory()
                    .createSocket(raw, "api.test", origin.port(), true);
            tls.startHandshake();
        }

        private void send(String path) throws IOException {
            tls.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: api.test:" + origin.port() + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            tls.getOutputStream().flush();
        }

        String get(String path) throws IOException {
            send(path);
            return RawHttp.readHead(tls.getInputStream());
        }

        String getUntilClose(String path) throws IOException {
            send(path);
            return new String(tls.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() throws IOException {
            tls.close();
        }
    }

    /**
     * HTTP/1.1 over TLS (or plain) on loopback, one thread per connection: {@code /keep/*} answers and keeps the
     * connection, {@code /close/*} answers with {@code Connection: close} and closes, {@code /short/*}
     * promises 100 body bytes, sends 10 and closes.
     */
    static final class TlsOrigin implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        /** Counted down when the proxy closes a connection that ended a response kept alive. */
        final CountDownLatch closedByProxy = new CountDownLatch(1);
        final ExecutorService threads = Executors.newCachedThreadPool();

        TlsOrigin(Origins certs, boolean tls) throws IOException {
            server = tls ? certs.sslContext.getServerSocketFactory().createServerSocket() : new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            threads.execute(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        accepted.incrementAndGet();
                        threads.execute(() -> serve(s));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve(Socket s) {
            try (s) {
                s.setSoTimeout(60_000);
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                boolean answered = false;
                while (true) {
                    String head = head(in);
                    if (head == null) {
                        if (answered) {
                            closedByProxy.countDown();
                        }
                        return;
                    }
                    requests.incrementAndGet();
                    String path = head.split(" ")[1];
                    if (path.startsWith("/short/")) {
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        return;
                    }
                    boolean close = path.startsWith("/close/");
                    byte[] body = ((close ? "close " : "keep ") + path + "\n").getBytes(StandardCharsets.ISO_8859_1);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n"
                            + (close ? "Connection: close\r\n" : "") + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body);
                    out.flush();
                    if (close) {
                        return;
                    }
                    answered = true;
                }
            } catch (IOException e) {
                // the proxy went away mid-exchange: nothing to answer
            }
        }

        /** A request head, or {@code null} at end of stream. */
        private static String head(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0) {
                b.write(c);
                if (b.size() >= 4 && b.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    return b.toString(StandardCharsets.ISO_8859_1);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            server.close();
            threads.shutdownNow();
        }
    }
}
