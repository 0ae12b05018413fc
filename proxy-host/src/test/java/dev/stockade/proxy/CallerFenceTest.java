package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
 * The caller fence against two real programs on the same host: the policy lists {@code /usr/bin/curl}
 * for api.test; curl gets through, wget (a real, correctly configured client, as its pass to an unfenced
 * host shows) is denied {@code caller-not-listed}. The proxy finds each caller from the kernel. The same
 * on the passthrough listener, which decides without the caller first and waits for it only when a
 * fence answers {@code caller-not-listed}; its audit lines name the caller either way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CallerFenceTest {
    private static final String CURL = "/usr/bin/curl";
    private static final String WGET = "/usr/bin/wget";

    @TempDir
    static Path dir;
    static Origins origins;
    static ProxyServer proxy;
    static final AuditCollector audit = new AuditCollector();

    @BeforeAll
    static void start() throws Exception {
        assertThat(Path.of(CURL)).as("curl is installed (.ci/run installs it)").isExecutable();
        assertThat(Path.of(WGET)).as("wget is installed (.ci/run installs it)").isExecutable();
        origins = new Origins(dir, "api.test", "open.test", "direct-open.test", "localhost");
        PolicySource policy = TestPolicies.compile(dir, "callers", """
                name: callers
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: api.test
                    verdict: allow
                    transport: upstream
                    binaries: [/usr/bin/curl]
                  - pattern: open.test
                    verdict: allow
                    transport: upstream
                  - pattern: localhost
                    verdict: allow
                    transport: direct
                    binaries: [/usr/bin/curl]
                  - pattern: direct-open.test
                    verdict: allow
                    transport: direct
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).allowLoopbackOriginsUnsafe(true)
                .passthroughPort(0).passthroughTlsOriginPort(origins.tlsPort())
                .extraTrustPem(origins.originCaPem).resolve("api.test", "127.0.0.1").resolve("open.test", "127.0.0.1")
                .resolve("localhost", "127.0.0.1").resolve("direct-open.test", "127.0.0.1").build();
        proxy = ProxyServer.start(config, policy, audit, CredentialStore.empty());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        origins.close();
    }

    record Run(int exit, String output) {
    }

    static Run run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).as("%s finished", command.get(0)).isTrue();
        return new Run(p.exitValue(), out);
    }

    static Run curl(String url) throws Exception {
        return run(List.of(CURL, "-sS", "--max-time", "30", "-x", "http://127.0.0.1:" + proxy.port(),
                "--cacert", proxy.caCertificate().toString(), url));
    }

    /** curl straight to the passthrough port, trusting the origins' CA (nothing is intercepted there). */
    static Run curlPassthrough(String host, String path) throws Exception {
        int port = proxy.passthroughPort();
        return run(List.of(CURL, "-sS", "--max-time", "30", "--cacert", origins.originCaPem.toString(),
                "--resolve", host + ":" + port + ":127.0.0.1", "https://" + host + ":" + port + path));
    }

    static Run wget(String url) throws Exception {
        // no wgetrc, no environment proxies: only what is given here
        return run(List.of(WGET, "--no-config", "-q", "-O", "-", "--timeout=10", "--tries=1", "-e", "use_proxy=yes",
                "-e", "https_proxy=http://127.0.0.1:" + proxy.port(), "--ca-certificate=" + proxy.caCertificate(), url));
    }

    @Test
    void curlIsListedAndPasses() throws Exception {
        Run r = curl("https://api.test:" + origins.tlsPort() + "/by-curl");
        assertThat(r.output()).startsWith("GET /by-curl\n");
        assertThat(r.exit()).isZero();
        AuditEvent line = audit.await(e -> "/by-curl".equals(e.path()), Duration.ofSeconds(30));
        assertThat(line.caller()).isEqualTo(CURL);
        assertThat(line.verdict()).isEqualTo("allow");
    }

    @Test
    void wgetIsNotListedAndIsDeniedBeforeTheTunnelOpens() throws Exception {
        Run open = wget("https://open.test:" + origins.tlsPort() + "/by-wget-open");
        assertThat(open.output()).as("wget works through the proxy where no caller fence applies")
                .startsWith("GET /by-wget-open\n");
        assertThat(open.exit()).isZero();
        assertThat(audit.await(e -> "/by-wget-open".equals(e.path()), Duration.ofSeconds(30)).caller())
                .isEqualTo(WGET);

        Run denied = wget("https://api.test:" + origins.tlsPort() + "/by-wget");
        assertThat(denied.exit()).isNotZero();
        AuditEvent line = audit.await(e -> EgressReason.CALLER_NOT_LISTED == e.reason() && "api.test".equals(e.host()),
                Duration.ofSeconds(30));
        assertThat(line.caller()).isEqualTo(WGET);
        assertThat(line.listener()).isEqualTo("connect");
        assertThat(line.status()).isEqualTo(403);
        assertThat(line.policy()).isEqualTo("callers");
        assertThat(origins.seen).noneMatch(s -> s.startsWith("GET /by-wget\n"));
    }

    @Test
    void onThePassthroughListenerCurlIsListedAndWgetIsClosed() throws Exception {
        int port = proxy.passthroughPort();
        Run byCurl = curlPassthrough("localhost", "/pass-by-curl");
        assertThat(byCurl.output()).startsWith("GET /pass-by-curl\n");
        AuditEvent allowed = audit.await(e -> "passthrough".equals(e.listener()) && "localhost".equals(e.host())
                && "allow".equals(e.verdict()), Duration.ofSeconds(30));
        assertThat(allowed.caller()).isEqualTo(CURL);

        Run byWget = run(List.of(WGET, "--no-config", "-q", "-O", "-", "--timeout=10", "--tries=1",
                "--ca-certificate=" + origins.originCaPem, "https://localhost:" + port + "/pass-by-wget"));
        assertThat(byWget.exit()).isNotZero();
        AuditEvent denied = audit.await(e -> "passthrough".equals(e.listener()) && "localhost".equals(e.host())
                && EgressReason.CALLER_NOT_LISTED == e.reason(), Duration.ofSeconds(30));
        assertThat(denied.caller()).isEqualTo(WGET);
        assertThat(denied.verdict()).isEqualTo("deny");
        assertThat(origins.seen).noneMatch(s -> s.startsWith("GET /pass-by-wget\n"));
    }

    @Test
    void onThePassthroughListenerAnUnfencedHostIsAuditedWithItsCaller() throws Exception {
        Run r = curlPassthrough("direct-open.test", "/open");
        assertThat(r.output()).startsWith("GET /open\n");
        AuditEvent line = audit.await(e -> "passthrough".equals(e.listener()) && "direct-open.test".equals(e.host()),
                Duration.ofSeconds(30));
        assertThat(line.verdict()).isEqualTo("allow");
        assertThat(line.caller()).isEqualTo(CURL);
    }
}
