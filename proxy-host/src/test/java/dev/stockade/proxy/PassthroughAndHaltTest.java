package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The passthrough listener for direct transport, and halt through the admin endpoint and the file flag. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PassthroughAndHaltTest {
    @TempDir
    static Path dir;
    static Origins origins;
    static ProxyServer proxy;
    static Path haltFile;
    static final AuditCollector audit = new AuditCollector();

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "api.test");
        PolicySource decider = TestPolicies.compile(dir, "passthrough", """
                name: test-policy
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: direct.test
                    verdict: allow
                    transport: direct
                  - pattern: api.test
                    verdict: allow
                    transport: upstream
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                """);
        haltFile = dir.resolve("halt.flag");
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).passthroughPort(0).adminPort(0)
                .passthroughTlsOriginPort(origins.tlsPort()).passthroughHttpOriginPort(origins.plainPort())
                .allowLoopbackOriginsUnsafe(true).extraTrustPem(origins.originCaPem).haltFile(haltFile)
                .resolve("direct.test", "127.0.0.1").resolve("api.test", "127.0.0.1")
                .resolve("plain.test", "127.0.0.1").build();
        proxy = ProxyServer.start(config, decider, audit, CredentialStore.empty());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        origins.close();
    }

    static String curl(String... args) throws Exception {
        String[] cmd = new String[args.length + 4];
        cmd[0] = "curl";
        cmd[1] = "-sS";
        cmd[2] = "--max-time";
        cmd[3] = "30";
        System.arraycopy(args, 0, cmd, 4, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void directHostIsSplicedWithoutDecryption() throws Exception {
        // the origin's own certificate reaches curl untouched: it is for api.test, signed by the origin CA
        String out = curl("--cacert", origins.originCaPem.toString(), "--connect-to",
                "api.test:443:127.0.0.1:" + proxy.passthroughPort(), "--resolve", "api.test:443:127.0.0.1",
                "-o", "/dev/null", "-w", "%{http_code}", "https://api.test/");
        // api.test is routed upstream: the passthrough port refuses to splice it
        assertThat(out).doesNotStartWith("200");
        audit.await(e -> "api.test".equals(e.host()) && EgressReason.ROUTED_UPSTREAM == e.reason(), Duration.ofSeconds(30));
        String direct = curl("-k", "--connect-to", "direct.test:443:127.0.0.1:" + proxy.passthroughPort(),
                "https://direct.test/spliced");
        assertThat(direct).startsWith("GET /spliced\n");
        AuditEvent line = audit.await(e -> "direct.test".equals(e.host()), Duration.ofSeconds(30));
        assertThat(line.listener()).isEqualTo("passthrough");
        assertThat(line.verdict()).isEqualTo("allow");
        assertThat(line.transport()).isEqualTo("direct");
        assertThat(line.bytesIn()).isPositive();
        assertThat(line.bytesOut()).isPositive();
    }

    @Test
    void deniedServerNameIsClosedAndAudited() throws Exception {
        String out = curl("-k", "--connect-to", "evil.test:443:127.0.0.1:" + proxy.passthroughPort(),
                "-o", "/dev/null", "-w", "%{http_code}", "https://evil.test/");
        assertThat(out).endsWith("000");
        audit.await(e -> "evil.test".equals(e.host()) && EgressReason.DEFAULT_DENY == e.reason()
                && "passthrough".equals(e.listener()), Duration.ofSeconds(30));
    }

    @Test
    void malformedClientHelloIsClosedAndAudited() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.passthroughPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(new byte[] {0x16, 3, 1, 0, 10, 1, 0, 0, 6, 3, 3, 1, 2, 3, 4});
            s.getOutputStream().flush();
            assertThat(readToEnd(s.getInputStream())).isEqualTo(-1);
        }
        audit.await(e -> EgressReason.MALFORMED_CLIENT_HELLO == e.reason(), Duration.ofSeconds(30));
    }

    @Test
    void plainHttpOnThePassthroughPortIsDecidedPerRequest() throws Exception {
        String ok = RawHttp.exchange(proxy.passthroughPort(), "GET /p HTTP/1.1\r\nHost: plain.test\r\nConnection: close\r\n\r\n");
        assertThat(ok).startsWith("HTTP/1.1 200").contains("GET /p");
        String no = RawHttp.exchange(proxy.passthroughPort(), "GET /p HTTP/1.1\r\nHost: evil.test\r\nConnection: close\r\n\r\n");
        assertThat(no).startsWith("HTTP/1.1 403").contains("default-deny");
    }

    @Test
    void haltClosesOpenConnectionsAndDeniesNewRequests() throws Exception {
        HttpClient admin = HttpClient.newHttpClient();
        URI halt = URI.create("http://127.0.0.1:" + proxy.adminPort() + "/halt");
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET http://plain.test:" + origins.plainPort() + "/before HTTP/1.1\r\nHost: plain.test:"
                    + origins.plainPort() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            assertThat(RawHttp.readHead(s.getInputStream())).startsWith("HTTP/1.1 200");
            HttpResponse<String> r = admin.send(HttpRequest.newBuilder(halt).POST(HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).contains("\"halted\":true");
            assertThat(readToEnd(s.getInputStream())).isEqualTo(-1);
        }
        try {
            String denied = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort()
                    + "/after HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\n\r\n");
            assertThat(denied).startsWith("HTTP/1.1 403").contains("halted");
        } finally {
            admin.send(HttpRequest.newBuilder(halt).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        }
        String again = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort()
                + "/resumed HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\nConnection: close\r\n\r\n");
        assertThat(again).startsWith("HTTP/1.1 200");
    }

    @Test
    void haltFileDeniesWhileItExists() throws Exception {
        long before = proxy.haltsApplied();
        Files.writeString(haltFile, "halted by operator\n");
        try {
            assertThat(proxy.awaitHaltApplied(before, 30_000)).isGreaterThan(before);
            String denied = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort()
                    + "/flag HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\n\r\n");
            assertThat(denied).startsWith("HTTP/1.1 403").contains("halted");
        } finally {
            Files.delete(haltFile);
        }
    }

    private static int readToEnd(InputStream in) throws Exception {
        try {
            int b;
            while ((b = in.read()) >= 0) {
                // drain whatever was in flight before the close
                assertThat(b).isBetween(0, 255);
            }
            return b;
        } catch (SocketException reset) {
            return -1;
        }
    }
}
