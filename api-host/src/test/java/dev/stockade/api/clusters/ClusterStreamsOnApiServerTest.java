package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.testing.Await;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * exec, attach and port-forward through the cluster proxy in direct mode, in front of a real kube-apiserver that
 * verifies the platform's request JWTs itself ({@link StreamingCluster}) and proxies the streams to a kubelet
 * stand-in speaking the kubelet's WebSocket protocols ({@link KubeletStandIn}). Clients: fabric8's Kubernetes client
 * (its own exec and port-forward code, as a sandbox's tooling would use) and the JDK's WebSocket client.
 */
@MicronautTest(transactional = false)
class ClusterStreamsOnApiServerTest extends StreamingClusterTest<KubeletStandIn> {
    ClusterStreamsOnApiServerTest() {
        super("streaming-cluster", KubeletStandIn::start);
    }

    @Override
    protected Map<String, String> streamProperties() {
        return Map.of("clusters.streams.max-per-sandbox", "2", "clusters.streams.idle-timeout", "5s",
                "clusters.streams.max-frame-bytes", "4096", "clusters.relay-poll-wait", "1s");
    }

    private KubernetesClient sandboxClient() {
        return sandboxClient(clusterId);
    }

    private KubernetesClient sandboxClient(String clusterId) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(http.base().resolve("/v1/clusters/" + clusterId
                + "/proxy/").toString()).withOauthToken(clusterToken).build();
        return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    private URI exec(String namespace, String query) {
        return exec(clusterId, namespace, query);
    }

    private URI exec(String clusterId, String namespace, String query) {
        return URI.create(http.base().resolve("/v1/clusters/").toString().replaceFirst("^http", "ws") + clusterId
                + "/proxy/api/v1/namespaces/" + namespace + "/pods/worker/exec?" + query);
    }

    @Test
    void anExecsOutputReachesTheSandboxThroughThePlatformAndIsAudited() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try (KubernetesClient client = sandboxClient();
             ExecWatch watch = client.pods().inNamespace(StreamingCluster.ALLOWED).withName("worker")
                     .writingOutput(out).writingError(err)
                     .exec("sh", "-c", "echo out-through-the-platform; echo err >&2; exit 3")) {
            assertThat(watch.exitCode().get(60, TimeUnit.SECONDS)).as("the exit status crossed on channel 3")
                    .isEqualTo(3);
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("out-through-the-platform\n");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("err\n");
        assertThat(cluster.kubelet.calls).anyMatch(c -> c.startsWith("/exec/" + StreamingCluster.ALLOWED
                + "/worker/main?"));
        JsonNode opened = awaitEntry("cluster-proxy", "exec", 101);
        assertThat(opened.at("/details/path").asText()).isEqualTo("/api/v1/namespaces/team/pods/worker/exec");
        assertThat(opened.at("/actor/type").asText()).as("as every proxied request").isEqualTo("cluster-token");
        assertThat(opened.at("/actor/id").asText()).startsWith("sandbox-token:");
        JsonNode ended = awaitEntry("cluster-proxy", "exec-end", 101);
        assertThat(ended.at("/details/bytesFromCluster").asLong()).isPositive();
    }

    @Test
    void portForwardCarriesBytesBothWays() throws Exception {
        try (ServerSocket pod = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             KubernetesClient client = sandboxClient()) {
            Thread answering = new Thread(() -> answerOnce(pod), "pod-port");
            answering.setDaemon(true);
            answering.start();
            try (LocalPortForward forward = client.pods().inNamespace(StreamingCluster.ALLOWED).withName("worker")
                    .portForward(pod.getLocalPort());
                 Socket local = new Socket(InetAddress.getLoopbackAddress(), forward.getLocalPort())) {
                local.setSoTimeout(60_000);
                OutputStream out = local.getOutputStream();
                out.write("ping from the sandbox\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                String back = new BufferedReader(new InputStreamReader(local.getInputStream(), StandardCharsets.UTF_8))
                        .readLine();
                assertThat(back).isEqualTo("pong: ping from the sandbox");
            }
        }
        assertThat(cluster.kubelet.calls).anyMatch(c -> c.startsWith("/portForward/" + StreamingCluster.ALLOWED
                + "/worker"));
        awaitEntry("cluster-proxy", "portforward", 101);
    }

    @Test
    void withoutTheClustersRightTheApiServersRefusalComesBackAndIsAudited() throws Exception {
        int before = cluster.kubelet.calls.size();
        ChannelSocket.Opened refused = ChannelSocket.open(exec(StreamingCluster.OTHER,
                "command=echo&command=hi&stdout=true"), clusterToken);
        assertThat(refused.status()).as("the cluster's RBAC refused the sandbox's group").isEqualTo(403);
        assertThat(cluster.kubelet.calls).hasSize(before);
        JsonNode entry = awaitEntry("cluster-proxy", "exec", 403);
        assertThat(entry.at("/outcome").asText()).isEqualTo("error");
        assertThat(entry.at("/details/path").asText()).isEqualTo("/api/v1/namespaces/other/pods/worker/exec");

        ChannelSocket.Opened noClusterToken = ChannelSocket.open(exec(StreamingCluster.ALLOWED,
                "command=echo&command=hi&stdout=true"), owner);
        assertThat(noClusterToken.status()).as("an API token is refused, as on every verb").isEqualTo(401);

        String elsewhere = createProject(owner, org, "elsewhere-" + UUID.randomUUID());
        String stranger = http.post("/v1/auth/cluster-token", http.post("/v1/projects/" + elsewhere
                + "/sandbox-tokens", owner, Map.of("name", "s")).text("token"), null).text("token");
        assertThat(ChannelSocket.open(exec(StreamingCluster.ALLOWED, "command=echo&command=hi&stdout=true"), stranger)
                .status()).as("another project's sandbox: as any cross-tenant id").isEqualTo(404);
        JsonNode denied = awaitEntry("access", "cluster-proxy", "a refused upgrade",
                e -> e.path("outcome").asText().equals("denied") && e.at("/details/status").asInt() == 404);
        assertThat(denied.at("/details/upgrade").asText()).isEqualTo("websocket");
    }

    @Test
    void aHaltClosesAnOpenStreamAndRefusesNewOnesUntilLifted() throws Exception {
        ChannelSocket cat = ChannelSocket.open(exec(StreamingCluster.ALLOWED,
                "command=cat&stdin=true&stdout=true"), clusterToken).stream();
        cat.send(0, "echoed".getBytes(StandardCharsets.UTF_8));
        Await.until("stdin to come back on stdout", () -> cat.text(1).equals("echoed"));

        assertThat(http.post("/v1/orgs/" + org + "/halt", owner, null).status()).isEqualTo(200);
        try {
            assertThat(cat.closed.get(30, TimeUnit.SECONDS)).as("closed with 1008 (policy)").isEqualTo(1008);
            assertThat(ChannelSocket.open(exec(StreamingCluster.ALLOWED, "command=cat&stdin=true&stdout=true"),
                    clusterToken).status()).isEqualTo(403);
            awaitEntry("cluster-proxy", "exec-end", "reason halted",
                    e -> e.at("/details/reason").asText().equals("halted"));
        } finally {
            assertThat(http.delete("/v1/orgs/" + org + "/halt", owner).status()).isEqualTo(200);
        }
    }

    @Test
    void streamsAreBoundedInNumberFrameSizeAndIdleTime() throws Exception {
        String cat = "command=cat&stdin=true&stdout=true";
        ChannelSocket first = ChannelSocket.open(exec(StreamingCluster.ALLOWED, cat), clusterToken).stream();
        ChannelSocket second = ChannelSocket.open(exec(StreamingCluster.ALLOWED, cat), clusterToken).stream();
        assertThat(ChannelSocket.open(exec(StreamingCluster.ALLOWED, cat), clusterToken).status())
                .as("a third stream of the sandbox").isEqualTo(429);

        first.send(0, new byte[5000]);
        assertThat(first.closed.get(30, TimeUnit.SECONDS)).as("a frame over 4096 bytes: 1009").isEqualTo(1009);
        long quietSince = System.nanoTime();
        assertThat(second.closed.get(60, TimeUnit.SECONDS)).as("idle for 5 s: 1001").isEqualTo(1001);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - quietSince)).isGreaterThan(3_000);
        awaitEntry("cluster-proxy", "exec-end", "reason frame-too-large",
                e -> e.at("/details/reason").asText().equals("frame-too-large"));
        awaitEntry("cluster-proxy", "exec-end", "reason idle", e -> e.at("/details/reason").asText().equals("idle"));
        ChannelSocket again = ChannelSocket.open(exec(StreamingCluster.ALLOWED, cat), clusterToken).stream();
        assertThat(again).as("the slots came back when the streams ended").isNotNull();
        again.socket.sendClose(1000, "done").get(30, TimeUnit.SECONDS);
    }

    @Test
    void throughTheRelayAnExecsOutputComesBackAndTheImpersonatedSandboxIsJudgedByTheClustersRbac() throws Exception {
        try (RelayedCluster relayed = relayedCluster("relayed")) {
            String relayedId = relayed.id();
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try (KubernetesClient client = sandboxClient(relayedId);
                 ExecWatch watch = client.pods().inNamespace(StreamingCluster.ALLOWED).withName("worker")
                         .writingOutput(out).exec("sh", "-c", "echo through-the-relay")) {
                assertThat(watch.exitCode().get(60, TimeUnit.SECONDS)).isEqualTo(0);
            }
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("through-the-relay\n");

            ChannelSocket cat = ChannelSocket.open(exec(relayedId, StreamingCluster.ALLOWED,
                    "command=cat&stdin=true&stdout=true"), clusterToken).stream();
            cat.send(0, "both ways".getBytes(StandardCharsets.UTF_8));
            Await.until("stdin to come back through the relay", () -> cat.text(1).equals("both ways"));
            cat.socket.sendClose(1000, "done").get(30, TimeUnit.SECONDS);

            assertThat(ChannelSocket.open(exec(relayedId, StreamingCluster.OTHER, "command=echo&command=hi&stdout=true"),
                    clusterToken).status()).as("the impersonated group may not exec there").isEqualTo(403);
            awaitEntry("cluster-proxy", "exec", "the relayed cluster's 403",
                    e -> e.at("/details/status").asInt() == 403 && e.path("target").asText().equals(relayedId));
        }
    }
}
