package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An origin in a network namespace of its own, reached over a veth pair at a private address (as an
 * internal service on another machine would be), through proxies in their production dial-guard
 * defaults: no UNSAFE loopback setting anywhere in this class. Private ranges are refused unless
 * opted out per host ({@code allowPrivateHosts}, {@code --allow-private-host}) or for the whole
 * install ({@code allowPrivateRanges}, {@code --allow-private-ranges}). Real curl as the client.
 * Needs root and iproute2 ({@code .ci/run} runs as root and installs iproute2): skipped, saying so,
 * for a user who is not root; as root, a namespace that cannot be made fails the class.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NetnsOriginTest {
    private static final String CURL = "/usr/bin/curl";
    private static final int ORIGIN_PORT = 8080;

    @TempDir
    static Path dir;
    static Netns ns;
    static HttpServer origin;
    static final AuditCollector audit = new AuditCollector();
    /** Private ranges opted out for {@code git.corp.test} only. */
    static ProxyServer perHost;
    /** Private ranges opted out for the whole install. */
    static ProxyServer perInstall;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")),
                "network namespaces need root (.ci/run runs as root): NetnsOriginTest skipped");
        ns = Netns.create();
        origin = ns.inside(() -> {
            HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getByName(ns.address), ORIGIN_PORT), 16);
            s.createContext("/", ex -> {
                byte[] out = ("namespace origin: " + ex.getRequestMethod() + " " + ex.getRequestURI() + " for "
                        + ex.getRequestHeaders().getFirst("Host") + "\n").getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, out.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(out);
                }
            });
            s.start();
            return s;
        });
        // every host is allowed, directly: only the dial guard decides below (both listeners serve direct)
        PolicySource policy = TestPolicies.compile(dir, "open", """
                name: open
                networkDefaultVerdict: allow
                networkDefaultTransport: direct
                """);
        perHost = ProxyServer.start(config("per-host").allowPrivateHosts(List.of("git.corp.test", "*.svc.corp.test"))
                .build(), policy, audit, CredentialStore.empty());
        perInstall = ProxyServer.start(config("per-install").allowPrivateRanges(true).build(), policy, audit,
                CredentialStore.empty());
    }

    private static ProxyConfig.Builder config(String name) {
        return ProxyConfig.builder(dir.resolve(name)).port(0).passthroughPort(0).passthroughHttpOriginPort(ORIGIN_PORT)
                .sandbox(name).resolve("git.corp.test", ns.address).resolve("api.svc.corp.test", ns.address)
                .resolve("other.test", ns.address).resolve("sneaky.svc.corp.test", "127.0.0.1");
    }

    @AfterAll
    static void stop() {
        try {
            if (perHost != null) {
                perHost.close();
            }
            if (perInstall != null) {
                perInstall.close();
            }
            if (origin != null) {
                origin.stop(0);
            }
        } finally {
            if (ns != null) {
                ns.close(); // the namespace and its link go even when a step above failed
            }
        }
    }

    record Run(int exit, String output) {
    }

    /** curl through a proxy's forward port: a plain-HTTP absolute-form request, decided per request. */
    static Run viaForward(ProxyServer proxy, String host, String path) throws Exception {
        return curl("-x", "http://127.0.0.1:" + proxy.port(), "http://" + host + ":" + ORIGIN_PORT + path);
    }

    /**
     * curl to a proxy's passthrough port as a transparent redirect would send it: connected to the
     * passthrough port, the request (and its Host header) naming the origin; plain HTTP.
     */
    static Run viaPassthrough(ProxyServer proxy, String host, String path) throws Exception {
        return curl("--connect-to", host + ":" + ORIGIN_PORT + ":127.0.0.1:" + proxy.passthroughPort(),
                "http://" + host + ":" + ORIGIN_PORT + path);
    }

    static Run curl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(CURL, "-sS", "--max-time", "30", "--noproxy", "",
                "-w", "\nstatus=%{http_code}"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).as("curl finished").isTrue();
        return new Run(p.exitValue(), out);
    }

    @Test
    void theOriginIsReallyInAnotherNamespace() throws Exception {
        Run direct = curl("http://" + ns.address + ":" + ORIGIN_PORT + "/direct");
        assertThat(direct.output()).contains("namespace origin: GET /direct").contains("status=200");
        Run loopback = curl("--connect-timeout", "5", "http://127.0.0.1:" + ORIGIN_PORT + "/");
        assertThat(loopback.output()).as("not listening on this namespace's loopback").doesNotContain("namespace origin");
    }

    @Test
    void aHostOptedOutReachesThePrivateOriginThroughBothListeners() throws Exception {
        Run forward = viaForward(perHost, "git.corp.test", "/repo.git");
        assertThat(forward.output()).contains("namespace origin: GET /repo.git for git.corp.test:" + ORIGIN_PORT)
                .contains("status=200");
        Run wildcard = viaForward(perHost, "api.svc.corp.test", "/v1");
        assertThat(wildcard.output()).contains("namespace origin: GET /v1").contains("status=200");
        Run pass = viaPassthrough(perHost, "git.corp.test", "/pass");
        assertThat(pass.output()).contains("namespace origin: GET /pass").contains("status=200");

        AuditEvent line = audit.await(e -> "per-host".equals(e.sandbox()) && "/repo.git".equals(e.path()),
                Duration.ofSeconds(30));
        assertThat(line.verdict()).isEqualTo("allow");
        assertThat(line.caller()).isEqualTo(CURL);
    }

    @Test
    void anotherNameForTheSamePrivateAddressIsRefused() throws Exception {
        Run forward = viaForward(perHost, "other.test", "/x");
        assertThat(forward.output()).contains("status=403").contains("dial-refused").contains("private")
                .doesNotContain("namespace origin");
        Run literal = viaForward(perHost, ns.address, "/x");
        assertThat(literal.output()).as("the address itself is not an opted-out host").contains("status=403")
                .contains("dial-refused");
        Run pass = viaPassthrough(perHost, "other.test", "/x");
        assertThat(pass.output()).doesNotContain("namespace origin");
        AuditEvent line = audit.await(e -> "per-host".equals(e.sandbox()) && "other.test".equals(e.host())
                && "passthrough-http".equals(e.listener()), Duration.ofSeconds(30));
        assertThat(line.reason()).isEqualTo(EgressReason.DIAL_REFUSED);
    }

    @Test
    void anOptedOutHostStillNeverReachesLoopback() throws Exception {
        Run r = viaForward(perHost, "sneaky.svc.corp.test", "/");
        assertThat(r.output()).contains("status=403").contains("dial-refused").contains("loopback");
    }

    @Test
    void theInstallWideOptOutOpensPrivateRangesForEveryName() throws Exception {
        Run other = viaForward(perInstall, "other.test", "/any");
        assertThat(other.output()).contains("namespace origin: GET /any").contains("status=200");
        Run literal = viaForward(perInstall, ns.address, "/literal");
        assertThat(literal.output()).contains("namespace origin: GET /literal").contains("status=200");
        Run loopback = viaForward(perInstall, "sneaky.svc.corp.test", "/");
        assertThat(loopback.output()).as("loopback stays refused").contains("status=403").contains("loopback");
    }
}
