package dev.stockade.api.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import dev.stockade.api.support.Requires;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local provisioner on this host (root, bubblewrap): a real sandbox whose only way out is the proxy address, the
 * env plan and proxy settings inside, limits in cgroups, the volume kept on stop and gone on delete.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalProvisionerTest {
    @TempDir
    static Path data;

    private LocalProvisioner provisioner;
    private HttpServer fakeProxy;
    private HttpServer platform;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeAll
    void start() throws Exception {
        Requires.bubblewrap();
        Requires.root();
        // stands where the platform's API listens: on loopback only, as `stockade serve` binds by default
        platform = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        platform.createContext("/", ex -> {
            byte[] body = ("platform saw " + ex.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        platform.start();
        provisioner = new LocalProvisioner(new PlatformConfig(null, null, 32768, data, Duration.ofSeconds(10), null),
                "10.213.0.1/16", 0, platform::getAddress);
        provisioner.prepareNetwork();
        // stands where the egress proxy listens: records the proxy request line and the proxy credentials
        fakeProxy = HttpServer.create(new InetSocketAddress(provisioner.gateway(), 0), 0);
        fakeProxy.createContext("/", ex -> {
            seen.add(ex.getRequestURI() + " " + ex.getRequestHeaders().getFirst("Proxy-Authorization"));
            byte[] body = "via proxy".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        fakeProxy.start();
    }

    @AfterAll
    void stop() {
        if (provisioner != null) {
            provisioner.stopAll();
        }
        if (fakeProxy != null) {
            fakeProxy.stop(0);
        }
        if (platform != null) {
            platform.stop(0);
        }
    }

    private SandboxSpec spec(String id) {
        return spec(id, Map.of("GITHUB_TOKEN", "__platform_cred:abc__", "FROM_POLICY", "yes"));
    }

    private SandboxSpec spec(String id, Map<String, String> env) {
        return new SandboxSpec(id, UUID.randomUUID().toString(), UUID.randomUUID().toString(), "s", 1, null, 500,
                256L << 20, env,
                new SandboxSpec.EgressRoute(provisioner.gateway(), fakeProxy.getAddress().getPort(), "tok-" + id,
                        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"),
                List.of(8080));
    }

    private static String run(ExecProcess p) throws Exception {
        p.stdin().close();
        String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)
                + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exit().get(30, TimeUnit.SECONDS)).as(out).isNotNull();
        return out;
    }

    @Test
    void aSandboxReachesOnlyItsProxyAndSeesItsEnvironmentLimitsAndVolume() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id));
        assertThat(provisioner.status(id).running()).isTrue();

        String env = run(provisioner.exec(id, new ExecRequest(List.of("env"), false, 0, 0)));
        assertThat(env).contains("GITHUB_TOKEN=__platform_cred:abc__", "FROM_POLICY=yes",
                "HTTPS_PROXY=http://sandbox:tok-" + id + "@" + provisioner.gateway(), "SSL_CERT_FILE=/etc/stockade/ca.pem");

        String routes = run(provisioner.exec(id, new ExecRequest(List.of("ip", "route"), false, 0, 0)));
        assertThat(routes.strip()).isEqualTo(provisioner.gateway() + " dev eth0 scope link");
        // through the proxy variables: the request reaches the proxy address with the sandbox's token
        String viaProxy = run(provisioner.exec(id, new ExecRequest(List.of("curl", "-sS", "-m", "10",
                "http://example.test/hello"), false, 0, 0)));
        assertThat(viaProxy).isEqualTo("via proxy");
        assertThat(seen).anyMatch(s -> s.startsWith("http://example.test/hello Basic "));
        // around the proxy: no route to anywhere else
        String direct = run(provisioner.exec(id, new ExecRequest(List.of("curl", "-sS", "-m", "5", "--noproxy", "*",
                "http://1.1.1.1/"), false, 0, 0)));
        assertThat(direct).containsAnyOf("unreachable", "Failed to connect", "Couldn't connect");

        String whoami = run(provisioner.exec(id, new ExecRequest(List.of("sh", "-c", "id -u; pwd; echo kept > f"),
                false, 0, 0)));
        assertThat(whoami.lines().toList()).containsExactly("1000", "/workspace");

        provisioner.stop(id);
        assertThat(provisioner.status(id).running()).isFalse();
        assertThat(data.resolve("sandboxes").resolve(id).resolve("volume/f")).hasContent("kept");
        provisioner.provision(spec(id));
        assertThat(run(provisioner.exec(id, new ExecRequest(List.of("cat", "f"), false, 0, 0)))).isEqualTo("kept\n");
        provisioner.delete(id);
        assertThat(data.resolve("sandboxes").resolve(id)).doesNotExist();
        assertThat(provisioner.status(id).phase()).isEqualTo("absent");
    }

    @Test
    void aSandboxReachesThePlatformListeningOnLoopbackAtItsPlatformApiUrl() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id));
        String url = provisioner.platformApiUrl();
        assertThat(url).startsWith("http://" + provisioner.gateway() + ":").endsWith("/v1");
        String answer = run(provisioner.exec(id, new ExecRequest(List.of("curl", "-sS", "-m", "10", "--noproxy", "*",
                url + "/llm/openai/v1/chat/completions"), false, 0, 0)));
        assertThat(answer).isEqualTo("platform saw /v1/llm/openai/v1/chat/completions");
        provisioner.delete(id);
    }

    @Test
    void memoryAndCpuLimitsAreSetInTheSandboxCgroups() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id));
        try {
            long pid = provisioner.initPid(id).orElseThrow();
            Path memory = SandboxCgroups.memoryGroupOf(pid);
            assertThat(memory.getParent().getFileName().toString()).isEqualTo("stockade");
            Path limit = memory.resolve(Files.exists(memory.resolve("memory.max")) ? "memory.max"
                    : "memory.limit_in_bytes");
            assertThat(Files.readString(limit).strip()).isEqualTo(Long.toString(256L << 20));
            Path cpu = SandboxCgroups.cpuGroupOf(pid);
            String quota = Files.exists(cpu.resolve("cpu.max")) ? Files.readString(cpu.resolve("cpu.max")).strip()
                    : Files.readString(cpu.resolve("cpu.cfs_quota_us")).strip() + " "
                    + Files.readString(cpu.resolve("cpu.cfs_period_us")).strip();
            assertThat(quota).isEqualTo("50000 100000"); // the spec's 500m of a 100 ms period
        } finally {
            provisioner.delete(id);
        }
    }

    @Test
    void aStartBubblewrapRefusesFailsWithItsOwnWordsAndLeavesNothingRunning() throws Exception {
        String id = UUID.randomUUID().toString();
        // a name setenv(3) refuses: bubblewrap reads it with its options and stops before the sandbox starts
        assertThatThrownBy(() -> provisioner.provision(spec(id, Map.of("BAD=NAME", "x"))))
                .isInstanceOf(ProvisionException.class)
                .hasMessageStartingWith("the sandbox exited at start: bwrap: setenv failed");
        assertThat(provisioner.status(id).phase()).isEqualTo("absent");
        assertThat(data.resolve("sandboxes").resolve(id).resolve("console.log")).content().contains("setenv");
        // a NUL cannot travel in the NUL-separated options: refused before anything starts
        assertThatThrownBy(() -> provisioner.provision(spec(id, Map.of("NUL", "a\0b"))))
                .isInstanceOf(ProvisionException.class).hasMessageContaining("NUL character");
        // the same sandbox then starts normally: its slot and groups were given back
        provisioner.provision(spec(id));
        assertThat(run(provisioner.exec(id, new ExecRequest(List.of("printenv", "FROM_POLICY"), false, 0, 0))))
                .isEqualTo("yes\n");
        provisioner.delete(id);
    }
}
