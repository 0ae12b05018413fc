package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Scratch;
import dev.stockade.testing.Await;
import dev.stockade.testing.Ports;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl's exec, attach and port-forward over SPDY/3.1 through the cluster proxy in direct mode, in front of
 * a real kube-apiserver (v1.20.2) that verifies the platform's request JWTs itself and proxies the upgrades to a
 * kubelet stand-in speaking the kubelet's SPDY stream protocols ({@link KubeletSpdyStandIn}). kubectl's kubeconfig
 * names the platform's proxy URL and a sandbox's cluster token; what it prints, its exit status, what the kubelet was
 * asked and the platform's audit trail are compared with what was sent. kubectl reaches the platform through TLS
 * ({@link TlsFront}), as through its ingress.
 */
@MicronautTest(transactional = false)
class ClusterSpdyOnApiServerTest extends StreamingClusterTest<KubeletSpdyStandIn> {
    private TlsFront front;
    private Kubectl kubectl;

    ClusterSpdyOnApiServerTest() {
        super("spdy-streaming-cluster", KubeletSpdyStandIn::start);
    }

    @Override
    protected Map<String, String> streamProperties() {
        return Map.of("clusters.streams.max-per-sandbox", "4", "clusters.streams.idle-timeout", "2m");
    }

    @BeforeEach
    void kubectl() {
        if (kubectl == null) {
            front = TlsFront.start(Scratch.directory("platform-tls"), http.base().getPort());
            kubectl = kubectlFor(clusterId);
        }
    }

    /** kubectl with the sandbox's cluster token for the proxy URL of cluster {@code id}, in namespace {@code team}. */
    private Kubectl kubectlFor(String id) {
        return Kubectl.forProxy(URI.create("https://127.0.0.1:" + front.port() + "/v1/clusters/" + id + "/proxy"),
                front.caCertificate(), clusterToken, StreamingCluster.ALLOWED, Scratch.directory("kubectl-home"));
    }

    @AfterAll
    void closeFront() throws IOException {
        if (front != null) {
            front.close();
        }
    }

    @Test
    void anExecsStdoutStderrAndExitStatusReachKubectlAndTheExecIsAudited() throws Exception {
        Instant started = Instant.now();
        Kubectl.Run exec = kubectl.start("exec", "worker", "--", "sh", "-c", "echo out; echo err >&2; exit 3");
        assertThat(exec.exit()).as("kubectl's own exit status is the command's (stderr: %s)", exec.stderr())
                .isEqualTo(3);
        assertThat(exec.stdout()).isEqualTo("out\n");
        assertThat(exec.stderr()).as("the command's stderr, then kubectl's reading of the status's ExitCode cause")
                .isEqualTo("err\ncommand terminated with exit code 3\n");
        assertThat(cluster.kubelet.calls()).as("the API server's SPDY upgrade reached the kubelet").anyMatch(c ->
                c.startsWith("/exec/team/worker/main?") && c.contains("output=1") && c.contains("error=1")
                        && !c.contains("input=1"));
        JsonNode opened = awaitEntry("cluster-proxy", "exec", "SPDY/3.1 switched", started,
                e -> e.at("/details/status").asInt() == 101 && e.at("/details/protocol").asText().equals("SPDY/3.1"));
        assertThat(opened.at("/details/path").asText()).isEqualTo("/api/v1/namespaces/team/pods/worker/exec");
        assertThat(opened.at("/actor/id").asText()).startsWith("sandbox-token:");
        JsonNode ended = awaitEntry("cluster-proxy", "exec-end", "the stream's end", started,
                e -> e.at("/details/protocol").asText().equals("SPDY/3.1"));
        assertThat(ended.at("/details/reason").asText()).isEqualTo("closed");
        assertThat(ended.at("/details/bytesFromCluster").asLong()).isPositive();
    }

    @Test
    void stdinPipedToKubectlExecReachesTheCommandAndItsOutputComesBack() throws Exception {
        byte[] input = new byte[300_000]; // several of kubectl's 32 KiB data frames
        new Random(7).nextBytes(input);
        Kubectl.Run exec = kubectl.start("exec", "-i", "worker", "--", "sha256sum");
        try (OutputStream stdin = exec.stdin()) {
            stdin.write(input);
        }
        assertThat(exec.exit()).as("stderr: %s", exec.stderr()).isZero();
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(input));
        assertThat(exec.stdout()).isEqualTo(digest + "  -\n");
        assertThat(cluster.kubelet.calls()).anyMatch(c -> c.startsWith("/exec/team/worker/main?")
                && c.contains("input=1") && c.contains("command=sha256sum"));
    }

    @Test
    void kubectlAttachJoinsTheContainersRunningProcessAndSeesItsOutput() throws Exception {
        StandInProcess main = cluster.kubelet.run(StreamingCluster.ALLOWED, "worker", "main",
                List.of("sh", "-c", "while read -r line; do echo \"main $$: $line\"; done"));
        assertThat(main.alive()).isTrue();
        Kubectl.Run attach = kubectl.start("attach", "-i", "worker", "-c", "main");
        try (OutputStream stdin = attach.stdin()) {
            stdin.write("hello from kubectl\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(attach.exit()).as("the container ended once its stdin closed (stderr: %s)", attach.stderr())
                .isZero();
        assertThat(attach.stdout()).as("the line came from the process that ran before the attach")
                .isEqualTo("main " + main.pid() + ": hello from kubectl\n");
        Await.until("the container's process to end with its stdin", () -> !main.alive());
        assertThat(cluster.kubelet.calls()).anyMatch(c -> c.startsWith("/attach/team/worker/main?")
                && c.contains("input=1"));
        awaitEntry("cluster-proxy", "attach", "SPDY/3.1 switched",
                e -> e.at("/details/status").asInt() == 101 && e.at("/details/protocol").asText().equals("SPDY/3.1"));
    }

    @Test
    void kubectlPortForwardCarriesBytesBothWaysToThePodsPort() throws Exception {
        try (ServerSocket pod = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> answerOnce(pod), "pod-port");
            answering.setDaemon(true);
            answering.start();
            int local = Ports.free();
            Kubectl.Run forward = kubectl.start("port-forward", "worker", local + ":" + pod.getLocalPort());
            try {
                forward.awaitStdout("Forwarding from 127.0.0.1:" + local + " -> " + pod.getLocalPort());
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), local)) {
                    s.setSoTimeout((int) Kubectl.BOUND.toMillis());
                    s.getOutputStream().write("ping through kubectl\n".getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().flush();
                    String back = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.UTF_8)).readLine();
                    assertThat(back).as("stderr: %s", forward.stderr()).isEqualTo("pong: ping through kubectl");
                }
                forward.awaitStdout("Handling connection for " + local);
            } finally {
                forward.interrupt();
            }
        }
        assertThat(cluster.kubelet.calls()).anyMatch(c -> c.startsWith("/portForward/team/worker"));
        awaitEntry("cluster-proxy", "portforward", "SPDY/3.1 switched",
                e -> e.at("/details/status").asInt() == 101 && e.at("/details/protocol").asText().equals("SPDY/3.1"));
        awaitEntry("cluster-proxy", "portforward-end", "the stream's end",
                e -> e.at("/details/bytesToCluster").asLong() > 0 && e.at("/details/bytesFromCluster").asLong() > 0);
    }

    @Test
    void theApiServersRbacRefusalReachesKubectlAsAnErrorAndIsAudited() throws Exception {
        Instant started = Instant.now();
        int before = cluster.kubelet.calls().size();
        Kubectl.Run exec = kubectl.start("exec", "-n", StreamingCluster.OTHER, "worker", "--", "echo", "hi");
        assertThat(exec.exit()).as("kubectl fails").isNotZero();
        assertThat(exec.stderr()).contains("forbidden").contains("pods/exec").contains(StreamingCluster.OTHER);
        assertThat(exec.stdout()).isEmpty();
        assertThat(cluster.kubelet.calls()).as("nothing reached the kubelet").hasSize(before);
        JsonNode refused = awaitEntry("cluster-proxy", "exec", "the API server's 403", started,
                e -> e.at("/details/status").asInt() == 403);
        assertThat(refused.at("/details/path").asText()).isEqualTo("/api/v1/namespaces/other/pods/worker/exec");
        assertThat(refused.at("/details/protocol").asText()).isEqualTo("SPDY/3.1");
    }

    @Test
    void aHaltEndsAnOpenKubectlExecAndKubectlsNextExecIsRefused() throws Exception {
        Kubectl.Run cat = kubectl.start("exec", "-i", "worker", "--", "cat");
        OutputStream stdin = cat.stdin();
        stdin.write("before the halt\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        cat.awaitStdout("before the halt\n");
        assertThat(http.post("/v1/orgs/" + org + "/halt", owner, null).status()).isEqualTo(200);
        try {
            // the platform writes a failure status on kubectl's error stream before it closes: kubectl says why
            assertThat(cat.exit()).isNotZero();
            assertThat(cat.stderr()).contains("the organization is halted");
            awaitEntry("cluster-proxy", "exec-end", "reason halted",
                    e -> e.at("/details/reason").asText().equals("halted"));
            // kubectl reads the pod before it upgrades: the halted proxy's 403 (problem details, which kubectl does not
            // decode) ends it there
            Kubectl.Run refused = kubectl.start("exec", "worker", "--", "echo", "hi");
            assertThat(refused.exit()).isNotZero();
            assertThat(refused.stderr()).startsWith("Error from server (Forbidden)");
            assertThat(refused.stdout()).isEmpty();
        } finally {
            stdin.close();
            assertThat(http.delete("/v1/orgs/" + org + "/halt", owner).status()).isEqualTo(200);
        }
    }

    @Test
    void throughTheRelayKubectlExecCarriesBothWaysAndTheClustersRbacJudgesTheImpersonatedSandbox() throws Exception {
        try (RelayedCluster relayed = relayedCluster("relayed")) {
            Kubectl viaRelay = kubectlFor(relayed.id());
            Kubectl.Run exec = viaRelay.start("exec", "-i", "worker", "--", "tr", "a-z", "A-Z");
            try (OutputStream stdin = exec.stdin()) {
                stdin.write("through the relay\n".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(exec.exit()).as("stderr: %s", exec.stderr()).isZero();
            assertThat(exec.stdout()).isEqualTo("THROUGH THE RELAY\n");
            awaitEntry("cluster-proxy", "exec", "SPDY/3.1 switched through the relay", e -> e.path("target").asText()
                    .equals(relayed.id()) && e.at("/details/status").asInt() == 101
                    && e.at("/details/protocol").asText().equals("SPDY/3.1"));

            Kubectl.Run refused = viaRelay.start("exec", "-n", StreamingCluster.OTHER, "worker", "--", "echo", "hi");
            assertThat(refused.exit()).isNotZero();
            assertThat(refused.stderr()).contains("forbidden").contains("pods/exec");
            awaitEntry("cluster-proxy", "exec", "the relayed cluster's 403", e -> e.path("target").asText()
                    .equals(relayed.id()) && e.at("/details/status").asInt() == 403);
        }
    }
}
