package dev.stockade.api.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import dev.stockade.api.support.Requires;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running sandbox keeps its path to the proxy while the shared bridge changes around it (the CI failure of
 * 2026-11-27: {@code curl: (28) Connection timed out} from a fresh sandbox to the gateway). Left to the kernel, the
 * bridge's MAC is the lowest of its ports' and moves when that port leaves, stranding every sandbox that resolved the
 * gateway to it; and a veth's neighbour entry on the bridge outlives it, so the host keeps sending to the old MAC
 * when the next namespace takes the address.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SandboxPathTest {
    private static final Path SLOTS = Path.of("/run/stockade/slots");
    /** A MAC from the range RFC 7042 keeps for documentation, below every random (locally administered) one. */
    private static final String LOWEST_MAC = "00:00:5e:00:53:01";

    @TempDir
    static Path data;

    private final LocalNetwork network = new LocalNetwork("10.213.0.1/16");
    private LocalProvisioner provisioner;
    private HttpServer proxy;

    @BeforeAll
    void start() throws Exception {
        Requires.bubblewrap();
        Requires.root();
        provisioner = new LocalProvisioner(new PlatformConfig(null, null, 32768, data, Duration.ofSeconds(10), null),
                "10.213.0.1/16", 0, () -> new InetSocketAddress("127.0.0.1", 9));
        provisioner.prepareNetwork();
        // stands where the egress proxy listens, on the bridge's address
        proxy = HttpServer.create(new InetSocketAddress(provisioner.gateway(), 0), 0);
        proxy.createContext("/", ex -> {
            byte[] body = "via proxy".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        proxy.start();
    }

    @AfterAll
    void stop() {
        if (provisioner != null) {
            provisioner.stopAll();
        }
        if (proxy != null) {
            proxy.stop(0);
        }
    }

    @Test
    void aSandboxStillReachesItsProxyAfterThePortWithTheLowestMacLeftTheBridge() throws Exception {
        String id = provision();
        try {
            // another sandbox's port with the lowest MAC joins; the sandbox resolves the gateway while it is there
            sh("ip link add stk-lowmac address " + LOWEST_MAC + " type veth peer name stk-lowmac-p"
                    + " && ip link set stk-lowmac master " + LocalNetwork.BRIDGE + " && ip link set stk-lowmac up");
            assertThat(viaProxy(id)).isEqualTo("via proxy");
        } finally {
            sh("ip link del stk-lowmac 2>/dev/null; true");
        }
        // that port is gone: the gateway's MAC the sandbox holds must still be the bridge's
        assertThat(viaProxy(id)).isEqualTo("via proxy");
        provisioner.delete(id);
    }

    @Test
    void aFreedAddressIsReachedAtOnceInTheNextNamespaceThatTakesIt() throws Exception {
        String id = provision();
        int slot = provisioner.slotOf(id).orElseThrow();
        InetSocketAddress port1 = new InetSocketAddress(network.address(slot), 1);
        assertRefused(port1); // the host resolved the sandbox's veth; nothing listens on port 1
        provisioner.delete(id);

        // the next platform to claim the slot makes its namespace at the same address, with another veth MAC
        Path file = SLOTS.resolve(Integer.toString(slot));
        Files.writeString(file, SlotClaim.newRun("another-platform", data).toJson(), StandardOpenOption.CREATE_NEW);
        try {
            network.attach(slot, 9, false);
            assertRefused(port1); // answered by the new namespace, within the bound
        } finally {
            network.detach(slot);
            Files.deleteIfExists(file);
        }
    }

    private String provision() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(new SandboxSpec(id, UUID.randomUUID().toString(), UUID.randomUUID().toString(), "s", 1,
                null, 250, 128L << 20, Map.of(), new SandboxSpec.EgressRoute(provisioner.gateway(),
                proxy.getAddress().getPort(), "tok", ""), List.of()));
        return id;
    }

    /** A request through the proxy variables, bounded well below the 20 s the CI's curl waited. */
    private String viaProxy(String id) throws Exception {
        ExecProcess p = provisioner.exec(id, new ExecRequest(List.of("curl", "-sS", "--connect-timeout", "5", "-m",
                "10", "http://example.test/"), false, 0, 0));
        p.stdin().close();
        String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)
                + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
        p.exit().get(30, TimeUnit.SECONDS);
        return out;
    }

    /** A refusal (a reset from the namespace) proves the path; a timeout means the frames went to a stale MAC. */
    private static void assertRefused(InetSocketAddress address) {
        assertThatThrownBy(() -> {
            try (Socket s = new Socket()) {
                s.connect(address, 3_000);
            }
        }).isInstanceOf(ConnectException.class);
    }

    private static void sh(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }
}
