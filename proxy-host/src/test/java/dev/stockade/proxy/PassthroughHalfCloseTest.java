package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The passthrough splice carries a half-close: the client's FIN reaches the origin as end of input
 * while the origin's answer still flows back, and the tunnel closes once both directions ended. The
 * origin is a raw TCP server (the proxy never decrypts a direct connection, so it cannot tell), fed a
 * real ClientHello from the JDK's TLS engine.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PassthroughHalfCloseTest {
    @TempDir
    Path dir;

    @Test
    void aClientFinReachesTheOriginAndItsAnswerStillComesBack() throws Exception {
        try (ServerSocket origin = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            PolicySource decider = TestPolicies.compile(dir, "halfclose", """
                    name: half-close
                    networkDefaultVerdict: deny
                    allowedDomains:
                      - pattern: direct.test
                        verdict: allow
                        transport: direct
                    """);
            ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).passthroughPort(0)
                    .passthroughTlsOriginPort(origin.getLocalPort()).allowLoopbackOriginsUnsafe(true)
                    .resolve("direct.test", "127.0.0.1").build();
            AuditCollector audit = new AuditCollector();
            ProxyServer proxy = ProxyServer.start(config, decider, audit, CredentialStore.of(List.of()));
            try {
                byte[] hello = clientHello("direct.test");
                CompletableFuture<Integer> originRead = CompletableFuture.supplyAsync(() -> {
                    try (Socket s = origin.accept()) {
                        s.setSoTimeout(30_000);
                        int n = drain(s.getInputStream()).length; // returns at the client's FIN
                        s.getOutputStream().write("answer after your FIN".getBytes(StandardCharsets.UTF_8));
                        s.getOutputStream().flush();
                        return n;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.passthroughPort())) {
                    client.setSoTimeout(30_000);
                    client.getOutputStream().write(hello);
                    client.getOutputStream().flush();
                    client.shutdownOutput();
                    String answer = new String(drain(client.getInputStream()), StandardCharsets.UTF_8);
                    assertThat(answer).isEqualTo("answer after your FIN");
                }
                assertThat(originRead.get(30, TimeUnit.SECONDS)).as("the origin got the whole ClientHello")
                        .isEqualTo(hello.length);
                AuditEvent line = audit.await(e -> "passthrough".equals(e.listener()) && e.bytesOut() > 0,
                        Duration.ofSeconds(30));
                assertThat(line.bytesIn()).isEqualTo(hello.length);
                assertThat(line.bytesOut()).isEqualTo("answer after your FIN".length());
            } finally {
                proxy.close();
            }
        }
    }

    /** The first TLS record a JDK client sends to {@code host}. */
    static byte[] clientHello(String host) throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine(host, 443);
        engine.setUseClientMode(true);
        SSLParameters params = engine.getSSLParameters();
        params.setServerNames(List.of(new SNIHostName(host)));
        engine.setSSLParameters(params);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    private static byte[] drain(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        in.transferTo(b);
        return b.toByteArray();
    }
}
