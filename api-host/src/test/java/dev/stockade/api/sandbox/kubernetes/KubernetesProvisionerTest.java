package dev.stockade.api.sandbox.kubernetes;

import dev.stockade.api.kernel.config.PlatformConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.OutputStreamMessage;
import io.fabric8.kubernetes.client.server.mock.StatusMessage;
import dev.stockade.api.sandbox.provision.ExecRequest;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Queue;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kubernetes provisioner against fabric8's Kubernetes mock server in CRUD mode (a stand-in for a cluster, which
 * cannot run on this machine, speaking the real API over HTTP on loopback) with {@link Kubelet} writing pod status.
 */
class KubernetesProvisionerTest {
    private static final PlatformConfig PLATFORM = new PlatformConfig("https://platform.example", null, 32768, null,
            java.time.Duration.ofSeconds(10), null);

    static final String NS = "sandboxes";
    static final String TOKEN = "stk_sbx_SECRETtokenSECRETtokenSECRETtokenSECRET";

    KubernetesMockServer server;
    KubernetesClient client;
    Kubelet kubelet;
    KubernetesProvisioner provisioner;

    @BeforeEach
    void start() {
        server = crudServer();
        server.init(java.net.InetAddress.getLoopbackAddress(), 0);
        client = server.createClient(new JdkHttpClientFactory());
        kubelet = new Kubelet(client, NS);
        provisioner = new KubernetesProvisioner(client, KubernetesSettings.defaults(NS), PLATFORM);
    }

    @AfterEach
    void stop() {
        kubelet.close();
        client.close();
        server.destroy();
    }

    /** The mock API server in CRUD mode (it stores what it is sent and serves lists and watches of it), over HTTP. */
    static KubernetesMockServer crudServer() {
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        return new KubernetesMockServer(new Context(), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
    }

    static SandboxSpec spec(String id, int revision, String proxyHost) {
        return new SandboxSpec(id, UUID.randomUUID().toString(), UUID.randomUUID().toString(), "happy-otter",
                revision, null, 500, 512L * 1024 * 1024,
                Map.of("GITHUB_TOKEN", "__platform_cred:0b4c3f9e-3f3a-4a59-9b7e-2f4f6f1d2a10__", "MODE", "dev",
                        "HTTP_PROXY", "http://somewhere-else:1"),
                new SandboxSpec.EgressRoute(proxyHost, 3128, TOKEN, "-----BEGIN CERTIFICATE-----\nMIIB\n"
                        + "-----END CERTIFICATE-----\n"), List.of(8080, 3000));
    }

    @Test
    void provisionMakesPodSecretsVolumeAndAnEgressPolicyThatOnlyReachesTheProxy() throws Exception {
        String id = UUID.randomUUID().toString();
        SandboxSpec spec = spec(id, 1, "10.0.0.5");
        provisioner.provision(spec);

        Pod pod = client.pods().inNamespace(NS).withName("sbx-" + id).get();
        assertThat(pod.getMetadata().getLabels()).containsEntry("stockade.dev/sandbox", id)
                .containsEntry("stockade.dev/org", spec.orgId()).containsEntry("stockade.dev/project", spec.projectId())
                .containsEntry("stockade.dev/revision", "1").containsEntry("app.kubernetes.io/managed-by", "stockade");
        assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSpec().getEnableServiceLinks()).isFalse();
        assertThat(pod.getSpec().getHostname()).isEqualTo("happy-otter");
        Container c = pod.getSpec().getContainers().get(0);
        assertThat(c.getImage()).isEqualTo("debian:bookworm-slim");
        assertThat(c.getResources().getLimits().get("cpu").toString()).isEqualTo("500m");
        assertThat(c.getResources().getLimits().get("memory").toString()).isEqualTo(Long.toString(512L << 20));
        assertThat(c.getResources().getRequests()).isEqualTo(c.getResources().getLimits());
        assertThat(c.getPorts()).extracting(p -> p.getContainerPort()).containsExactly(8080, 3000);
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        Map<String, EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
        assertThat(env.get("GITHUB_TOKEN").getValue()).startsWith("__platform_cred:");
        assertThat(env.get("MODE").getValue()).isEqualTo("dev");
        for (String proxyVar : List.of("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")) {
            assertThat(env.get(proxyVar).getValue()).as("the spec's own proxy value is replaced").isNull();
            assertThat(env.get(proxyVar).getValueFrom().getSecretKeyRef().getName()).isEqualTo("sbx-" + id + "-proxy");
        }
        assertThat(env.get("NODE_EXTRA_CA_CERTS").getValue()).isEqualTo("/etc/stockade/ca/ca.crt");
        assertThat(Serialization.asJson(pod)).as("the proxy token is never in the pod spec").doesNotContain(TOKEN);
        assertThat(pod.getSpec().getVolumes()).extracting(v -> v.getName()).containsExactly("data", "ca");
        assertThat(pod.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName())
                .isEqualTo("sbx-" + id + "-data");

        assertThat(secretValue("sbx-" + id + "-proxy", "HTTPS_PROXY")).isEqualTo("http://sandbox:" + TOKEN
                + "@10.0.0.5:3128");
        assertThat(secretValue("sbx-" + id + "-ca", "ca.crt")).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(client.persistentVolumeClaims().inNamespace(NS).withName("sbx-" + id + "-data").get()
                .getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("1Gi");

        NetworkPolicy policy = client.network().v1().networkPolicies().inNamespace(NS).withName("sbx-" + id + "-egress")
                .get();
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of("stockade.dev/sandbox", id));
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Egress");
        assertThat(policy.getSpec().getEgress()).hasSize(1);
        NetworkPolicyEgressRule only = policy.getSpec().getEgress().get(0);
        assertThat(only.getTo()).hasSize(1);
        assertThat(only.getTo().get(0).getIpBlock().getCidr()).isEqualTo("10.0.0.5/32");
        assertThat(only.getTo().get(0).getIpBlock().getExcept()).isNullOrEmpty();
        assertThat(only.getPorts()).hasSize(1);
        assertThat(only.getPorts().get(0).getProtocol()).isEqualTo("TCP");
        assertThat(only.getPorts().get(0).getPort().getIntVal()).isEqualTo(3128);

        assertThat(provisioner.status(id).phase()).isEqualTo("running");
    }

    @Test
    void dnsIsAllowedOnlyToTheClusterDnsAndOnlyWhenTheInstallSaysSo() throws Exception {
        provisioner = new KubernetesProvisioner(client, KubernetesSettings.defaults(NS).withDns(true), PLATFORM);
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id, 1, "fd00::5"));
        NetworkPolicy policy = client.network().v1().networkPolicies().inNamespace(NS).withName("sbx-" + id + "-egress")
                .get();
        assertThat(policy.getSpec().getEgress()).hasSize(2);
        assertThat(policy.getSpec().getEgress().get(0).getTo().get(0).getIpBlock().getCidr()).isEqualTo("fd00:0:0:0:0:0:0:5/128");
        NetworkPolicyEgressRule dns = policy.getSpec().getEgress().get(1);
        assertThat(dns.getTo().get(0).getPodSelector().getMatchLabels()).isEqualTo(Map.of("k8s-app", "kube-dns"));
        assertThat(dns.getTo().get(0).getNamespaceSelector().getMatchLabels())
                .isEqualTo(Map.of("kubernetes.io/metadata.name", "kube-system"));
        assertThat(dns.getPorts()).extracting(p -> p.getProtocol() + "/" + p.getPort().getIntVal())
                .containsExactly("UDP/53", "TCP/53");
    }

    @Test
    void aProxyNamedByHostNameWithoutProxyPodLabelsIsRefusedAndNothingIsWritten() {
        String id = UUID.randomUUID().toString();
        assertThatThrownBy(() -> provisioner.provision(spec(id, 1, "egress.stockade.svc")))
                .isInstanceOf(ProvisionException.class).hasMessageContaining("sandbox.k8s.proxyPodLabels");
        assertThat(client.pods().inNamespace(NS).list().getItems()).isEmpty();
        assertThat(client.secrets().inNamespace(NS).list().getItems()).isEmpty();
        assertThat(client.network().v1().networkPolicies().inNamespace(NS).list().getItems()).isEmpty();
    }

    @Test
    void stopDeletesThePodAndKeepsTheVolumeAndRestartReprovisionsOntoTheSameVolume() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id, 1, "10.0.0.5"));
        String claimUid = client.persistentVolumeClaims().inNamespace(NS).withName("sbx-" + id + "-data").get()
                .getMetadata().getUid();

        provisioner.stop(id);
        assertThat(client.pods().inNamespace(NS).withName("sbx-" + id).get()).isNull();
        assertThat(client.persistentVolumeClaims().inNamespace(NS).withName("sbx-" + id + "-data").get()).isNotNull();
        assertThat(provisioner.status(id).phase()).isEqualTo("absent");
        provisioner.stop(id); // idempotent

        provisioner.provision(spec(id, 2, "10.0.0.5"));
        provisioner.provision(spec(id, 2, "10.0.0.5")); // provisioning a running sandbox again re-provisions it
        assertThat(client.pods().inNamespace(NS).withName("sbx-" + id).get().getMetadata().getLabels())
                .containsEntry("stockade.dev/revision", "2");
        assertThat(client.persistentVolumeClaims().inNamespace(NS).withName("sbx-" + id + "-data").get()
                .getMetadata().getUid()).isEqualTo(claimUid);
        assertThat(client.pods().inNamespace(NS).list().getItems()).hasSize(1);
    }

    @Test
    void deleteRemovesEverythingAndIsIdempotent() throws Exception {
        String id = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        provisioner.provision(spec(id, 1, "10.0.0.5"));
        provisioner.provision(spec(other, 1, "10.0.0.5"));

        provisioner.delete(id);
        provisioner.delete(id);
        provisioner.delete(UUID.randomUUID().toString()); // never existed
        assertThat(client.pods().inNamespace(NS).list().getItems()).extracting(p -> p.getMetadata().getName())
                .containsExactly("sbx-" + other);
        assertThat(client.secrets().inNamespace(NS).list().getItems()).extracting(s -> s.getMetadata().getName())
                .containsExactlyInAnyOrder("sbx-" + other + "-proxy", "sbx-" + other + "-ca");
        assertThat(client.persistentVolumeClaims().inNamespace(NS).list().getItems()).hasSize(1);
        assertThat(client.network().v1().networkPolicies().inNamespace(NS).list().getItems()).hasSize(1);
        assertThat(provisioner.status(id).phase()).isEqualTo("absent");
    }

    @Test
    void anImageThatCannotBePulledFailsProvisionWithTheReason() {
        kubelet.behaviour.set(Kubelet.Behaviour.IMAGE_PULL_FAILS);
        String id = UUID.randomUUID().toString();
        assertThatThrownBy(() -> provisioner.provision(spec(id, 1, "10.0.0.5")))
                .isInstanceOf(ProvisionException.class).hasMessageContaining("ImagePullBackOff")
                .hasMessageNotContaining(TOKEN);
        assertThat(provisioner.status(id).phase()).isEqualTo("failed");
        assertThat(provisioner.status(id).detail()).startsWith("ImagePullBackOff: Back-off pulling image");
    }

    @Test
    void aPodNoNodeRunsTimesOutWithAClearMessage() {
        kubelet.behaviour.set(Kubelet.Behaviour.NOTHING);
        provisioner = new KubernetesProvisioner(client, KubernetesSettings.defaults(NS)
                .withStartTimeout(Duration.ofSeconds(1)), PLATFORM);
        String id = UUID.randomUUID().toString();
        assertThatThrownBy(() -> provisioner.provision(spec(id, 1, "10.0.0.5")))
                .isInstanceOf(ProvisionException.class).hasMessageContaining("did not run within 1 s");
        assertThat(provisioner.status(id).phase()).isEqualTo("starting");
    }

    @Test
    void aSandboxIdThatIsNotAUuidIsRefused() {
        assertThatThrownBy(() -> provisioner.stop("../kube-system")).isInstanceOf(ProvisionException.class)
                .hasMessageContaining("not a UUID");
        assertThat(provisioner.status("x").phase()).isEqualTo("absent");
    }

    @Test
    void statusFollowsThePodPhaseAsTheClusterReportsIt() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id, 1, "10.0.0.5"));
        Pod pod = client.pods().inNamespace(NS).withName("sbx-" + id).get();
        Map<PodStatus, String> cases = new java.util.LinkedHashMap<>();
        cases.put(new PodStatusBuilder().withPhase("Pending").build(), "starting");
        cases.put(new PodStatusBuilder().withPhase("Pending").addToContainerStatuses(waiting("ContainerCreating"))
                .build(), "starting");
        cases.put(new PodStatusBuilder().withPhase("Pending").addToContainerStatuses(waiting("ErrImagePull")).build(),
                "failed ErrImagePull: why");
        cases.put(new PodStatusBuilder().withPhase("Running").addToContainerStatuses(waiting("CrashLoopBackOff"))
                .build(), "failed CrashLoopBackOff: why");
        cases.put(new PodStatusBuilder().withPhase("Running").build(), "starting");
        cases.put(Kubelet.running("10.9.8.7"), "running");
        cases.put(new PodStatusBuilder().withPhase("Succeeded").build(), "stopped");
        cases.put(new PodStatusBuilder().withPhase("Failed").withReason("Evicted").withMessage("low on memory")
                .build(), "failed Evicted: low on memory");
        cases.put(new PodStatusBuilder().withPhase("Unknown").build(), "failed NodeLost: the pod's node does not answer");
        for (Map.Entry<PodStatus, String> c : cases.entrySet()) {
            Kubelet.setStatus(client, pod, c.getKey());
            var status = provisioner.status(id);
            assertThat((status.phase() + " " + status.detail()).strip()).as(c.getKey().toString())
                    .isEqualTo(c.getValue());
        }
    }

    @Test
    void portAddressIsThePodAddressOfADeclaredPortWhileItRuns() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id, 1, "10.0.0.5"));
        Pod pod = client.pods().inNamespace(NS).withName("sbx-" + id).get();
        Kubelet.setStatus(client, pod, Kubelet.running("10.9.8.7"));
        assertThat(provisioner.portAddress(id, 8080)).hasValue(new java.net.InetSocketAddress("10.9.8.7", 8080));
        assertThat(provisioner.portAddress(id, 9999)).as("not an exposed port").isEmpty();
        Kubelet.setStatus(client, pod, new PodStatusBuilder().withPhase("Pending").build());
        assertThat(provisioner.portAddress(id, 8080)).isEmpty();
        provisioner.stop(id);
        assertThat(provisioner.portAddress(id, 8080)).isEmpty();
    }

    @Test
    void execRunsThroughTheExecSubresourceWithATtyAndResizes() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(spec(id, 1, "10.0.0.5"));
        // the exec subresource is not CRUD: an expectation answers it, speaking the channel protocol (v4)
        server.expect().get().withPath("/api/v1/namespaces/" + NS + "/pods/sbx-" + id
                        + "/exec?command=sh&command=-c&command=stty%20size&container=sandbox&tty=true&stdin=true&stdout=true")
                .andUpgradeToWebSocket()
                .open()
                .expect("\u0004{\"Width\":80,\"Height\":24}").andEmit(new OutputStreamMessage("24 80\r\n")).always()
                .expect("\u0004{\"Width\":100,\"Height\":40}").andEmit(new OutputStreamMessage("40 100\r\n")).always()
                .expect("\u0000exit\n").andEmit(new StatusMessage(0)).always()
                .done().always();
        try (var exec = provisioner.exec(id, new ExecRequest(List.of("sh", "-c", "stty size"), true, 80, 24))) {
            assertThat(exec.stderr().read()).as("a tty has one stream").isEqualTo(-1);
            java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(exec.stdout(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).as("the size asked for at the start").isEqualTo("24 80");
            exec.resize(100, 40);
            assertThat(out.readLine()).isEqualTo("40 100");
            exec.stdin().write("exit\n".getBytes(StandardCharsets.UTF_8));
            exec.stdin().flush();
            assertThat(exec.exit().get(30, java.util.concurrent.TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void execIntoASandboxThatDoesNotRunIsRefused() {
        assertThatThrownBy(() -> provisioner.exec(UUID.randomUUID().toString(),
                new ExecRequest(List.of(), true, 80, 24))).isInstanceOf(ProvisionException.class)
                .hasMessageContaining("not running");
    }

    private static io.fabric8.kubernetes.api.model.ContainerStatus waiting(String reason) {
        return new io.fabric8.kubernetes.api.model.ContainerStatusBuilder().withName("sandbox").withNewState()
                .withNewWaiting().withReason(reason).withMessage("why").endWaiting().endState().build();
    }

    private String secretValue(String name, String key) {
        Secret s = client.secrets().inNamespace(NS).withName(name).get();
        if (s.getData() != null && s.getData().containsKey(key)) {
            return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
        }
        return s.getStringData().get(key);
    }
}
