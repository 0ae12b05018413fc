package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bulk passthrough tunnels on both transports: on epoll, a direction that passes
 * {@code Splice.KERNEL_AFTER} bytes moves to {@code splice(2)} (the metric shows it), and every byte,
 * the half-close and the audit counts must come out exactly as on the copy path (NIO). The origin is
 * a raw TCP server fed a real ClientHello; payloads are seeded random bytes compared by CRC-32.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PassthroughKernelSpliceTest {
    private static final int UP = 3 * 1024 * 1024;
    private static final int DOWN = 5 * 1024 * 1024;
    private static final int SLOW_DOWN = 448 * 1024;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = ProxyConfig.PassthroughIo.class, names = {"EPOLL", "NIO"})
    void bulkBothWaysWithAHalfCloseArrivesWhole(ProxyConfig.PassthroughIo io) throws Exception {
        assumeTrue(io != ProxyConfig.PassthroughIo.EPOLL || Epoll.isAvailable(), "native epoll not available");
        byte[] hello = PassthroughHalfCloseTest.clientHello("direct.test");
        byte[] up = payload(1, UP);
        byte[] down = payload(2, DOWN);
        try (ServerSocket origin = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             Proxy proxy = new Proxy(io, origin.getLocalPort())) {
            CompletableFuture<Long> originGot = CompletableFuture.supplyAsync(() -> {
                try (Socket s = origin.accept()) {
                    s.setSoTimeout(60_000);
                    long crc = crcUntilEnd(s.getInputStream(), hello.length + UP); // returns at the client's FIN
                    s.getOutputStream().write(down);
                    s.getOutputStream().flush();
                    return crc;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.server.passthroughPort())) {
                client.setSoTimeout(60_000);
                OutputStream out = client.getOutputStream();
                out.write(hello);
                out.write(up);
                out.flush();
                client.shutdownOutput();
                assertThat(crcUntilEnd(client.getInputStream(), DOWN)).as("origin to client").isEqualTo(crc(down));
            }
            assertThat(originGot.get(60, TimeUnit.SECONDS)).as("client to origin")
                    .isEqualTo(crc(hello, up));
            AuditEvent line = proxy.audit.await(e -> "passthrough".equals(e.listener()) && e.bytesOut() > 0,
                    Duration.ofSeconds(60));
            assertThat(line.bytesIn()).isEqualTo(hello.length + UP);
            assertThat(line.bytesOut()).isEqualTo(DOWN);
            assertThat(proxy.kernelSplices()).as("directions moved to splice(2)")
                    .isEqualTo(io == ProxyConfig.PassthroughIo.EPOLL ? 2 : 0);
        }
    }

    /**
     * The origin sends everything and its FIN before the client reads anything (its send buffer holds
     * it all), so on epoll the FIN tends to reach the proxy while the pipe is full and bytes still wait
     * in the proxy's socket: none may be lost, and the end must come after the last byte.
     */
    @ParameterizedTest
    @EnumSource(value = ProxyConfig.PassthroughIo.class, names = {"EPOLL", "NIO"})
    void aSlowReaderGetsEveryByteBeforeTheEnd(ProxyConfig.PassthroughIo io) throws Exception {
        assumeTrue(io != ProxyConfig.PassthroughIo.EPOLL || Epoll.isAvailable(), "native epoll not available");
        byte[] hello = PassthroughHalfCloseTest.clientHello("direct.test");
        byte[] down = payload(3, SLOW_DOWN);
        try (ServerSocket origin = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             Proxy proxy = new Proxy(io, origin.getLocalPort())) {
            CompletableFuture<Void> originSent = CompletableFuture.runAsync(() -> {
                try (Socket s = origin.accept()) {
                    s.setSendBufferSize(4 * 1024 * 1024); // the whole payload and the FIN leave at once
                    s.getInputStream().readNBytes(hello.length);
                    s.getOutputStream().write(down);
                    s.getOutputStream().flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (Socket client = new Socket()) {
                client.setReceiveBufferSize(4096); // before connecting: a small window keeps the proxy waiting
                client.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(),
                        proxy.server.passthroughPort()));
                client.setSoTimeout(60_000);
                client.getOutputStream().write(hello);
                client.getOutputStream().flush();
                originSent.get(60, TimeUnit.SECONDS); // everything is on its way before the first read
                InputStream in = client.getInputStream();
                CRC32 crc = new CRC32();
                byte[] piece = new byte[4096];
                long total = 0;
                for (int n; (n = in.read(piece)) >= 0; ) {
                    crc.update(piece, 0, n);
                    total += n;
                }
                assertThat(total).isEqualTo(SLOW_DOWN);
                assertThat(crc.getValue()).isEqualTo(crc(down));
            }
            AuditEvent line = proxy.audit.await(e -> "passthrough".equals(e.listener()) && e.bytesOut() > 0,
                    Duration.ofSeconds(60));
            assertThat(line.bytesOut()).isEqualTo(SLOW_DOWN);
            assertThat(proxy.kernelSplices()).isEqualTo(io == ProxyConfig.PassthroughIo.EPOLL ? 1 : 0);
        }
    }

    /** A tunnel that moved to the kernel and then goes quiet is still closed by the idle timeout. */
    @ParameterizedTest
    @EnumSource(value = ProxyConfig.PassthroughIo.class, names = {"EPOLL", "NIO"})
    void anIdleSplicedTunnelIsClosed(ProxyConfig.PassthroughIo io) throws Exception {
        assumeTrue(io != ProxyConfig.PassthroughIo.EPOLL || Epoll.isAvailable(), "native epoll not available");
        byte[] hello = PassthroughHalfCloseTest.clientHello("direct.test");
        byte[] down = payload(4, 1024 * 1024);
        try (ServerSocket origin = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             // the idle bound must outlast the active part (the origin's thread starting, accepting, sending):
             // 400 ms left a loaded machine too little; the test sits the bound out once the tunnel goes quiet
             Proxy proxy = new Proxy(io, origin.getLocalPort(), Duration.ofSeconds(5))) {
            CompletableFuture<Integer> originSawEnd = CompletableFuture.supplyAsync(() -> {
                try (Socket s = origin.accept()) {
                    s.getInputStream().readNBytes(hello.length);
                    s.getOutputStream().write(down);
                    s.getOutputStream().flush();
                    return s.getInputStream().read(); // blocks, idle, until the proxy closes the tunnel
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.server.passthroughPort())) {
                client.setSoTimeout(30_000);
                client.getOutputStream().write(hello);
                client.getOutputStream().flush();
                InputStream in = client.getInputStream();
                assertThat(in.readNBytes(down.length)).isEqualTo(down);
                int after;
                try {
                    after = in.read(); // blocks, idle, until the proxy closes the tunnel
                } catch (java.net.SocketException reset) {
                    after = -1;
                }
                assertThat(after).as("the tunnel was closed").isEqualTo(-1);
            }
            assertThat(originSawEnd.get(30, TimeUnit.SECONDS)).isEqualTo(-1);
            AuditEvent line = proxy.audit.await(e -> "passthrough".equals(e.listener()) && e.bytesOut() > 0,
                    Duration.ofSeconds(30));
            assertThat(line.bytesOut()).isEqualTo(down.length);
            assertThat(proxy.kernelSplices()).isEqualTo(io == ProxyConfig.PassthroughIo.EPOLL ? 1 : 0);
        }
    }

    /** A proxy with a passthrough listener on {@code io} that lets {@code direct.test} through to {@code originPort}. */
    private final class Proxy implements AutoCloseable {
        final AuditCollector audit = new AuditCollector();
        final ProxyServer server;

        Proxy(ProxyConfig.PassthroughIo io, int originPort) throws Exception {
            this(io, originPort, Duration.ofMinutes(5));
        }

        Proxy(ProxyConfig.PassthroughIo io, int originPort, Duration idle) throws Exception {
            PolicySource decider = TestPolicies.compile(dir, "kernel-" + io, """
                    name: kernel-splice
                    networkDefaultVerdict: deny
                    allowedDomains:
                      - pattern: direct.test
                        verdict: allow
                        transport: direct
                    """);
            ProxyConfig config = ProxyConfig.builder(dir.resolve("data-" + io)).port(0).passthroughPort(0).adminPort(0)
                    .passthroughTlsOriginPort(originPort).allowLoopbackOriginsUnsafe(true)
                    .resolve("direct.test", "127.0.0.1").passthroughIo(io).idleTimeout(idle).build();
            server = ProxyServer.start(config, decider, audit, CredentialStore.of(List.of()));
        }

        /** {@code stockade_proxy_kernel_splices_total} from the admin endpoint's Prometheus text. */
        long kernelSplices() throws Exception {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.adminPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return (long) MetricsTest.value(r.body(), "stockade_proxy_kernel_splices_total");
        }

        @Override
        public void close() {
            server.close();
        }
    }

    private static byte[] payload(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static long crc(byte[]... parts) {
        CRC32 c = new CRC32();
        for (byte[] p : parts) {
            c.update(p);
        }
        return c.getValue();
    }

    /** CRC-32 of everything up to the end of the stream, which must be exactly {@code expected} bytes. */
    private static long crcUntilEnd(InputStream in, long expected) throws java.io.IOException {
        CRC32 c = new CRC32();
        byte[] buf = new byte[64 * 1024];
        long total = 0;
        for (int n; (n = in.read(buf)) >= 0; ) {
            c.update(buf, 0, n);
            total += n;
        }
        assertThat(total).isEqualTo(expected);
        return c.getValue();
    }
}
