package dev.stockade.api.sandbox.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import dev.stockade.testing.Await;
import dev.stockade.testing.KubeApiServer;
import dev.stockade.testing.ThrowawayPki;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kubernetes provisioner against a real kube-apiserver (v1.20.2, {@link KubeApiServer}): what it builds passes the
 * real validation, defaulting and admission and reads back as meant; a refused object is reported with the server's
 * own reasons; exec travels through the API server's exec subresource to a kubelet endpoint ({@link KubeletEndpoint})
 * and back. {@link LoopbackNode} plays the scheduler and kubelet, which cannot run here.
 */
class RealApiServerProvisionerTest {
    private static final PlatformConfig PLATFORM = new PlatformConfig("https://platform.example", null, 32768, null,
            Duration.ofSeconds(10), null);
    static final String NS = "sandboxes";
    static final String TOKEN = KubernetesProvisionerTest.TOKEN;

    static KubeApiServer api;
    static KubernetesClient client;
    static KubeletEndpoint kubelet;
    static LoopbackNode node;
    KubernetesProvisioner provisioner = new KubernetesProvisioner(client, KubernetesSettings.defaults(NS), PLATFORM);

    @BeforeAll
    static void startControlPlane() throws InterruptedException {
        api = KubeApiServer.start();
        client = client(api);
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                .create();
        // the controller-manager's act on a new namespace; ServiceAccount admission refuses pods without it
        client.serviceAccounts().inNamespace(NS).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("default").endMetadata().build()).create();
        kubelet = KubeletEndpoint.start(api.pki());
        node = new LoopbackNode(client, NS, kubelet.getPort());
    }

    static KubernetesClient client(KubeApiServer api) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(api.url())
                .withCaCertData(ThrowawayPki.base64(api.pki().caCertificate())).withOauthToken(api.token()).build();
        return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    @AfterEach
    void noNodeFailures() {
        assertThat(node.failures).as("the loopback node's scheduler and kubelet acts").isEmpty();
    }

    @AfterAll
    static void stopControlPlane() throws InterruptedException {
        if (node != null) {
            node.close();
        }
        if (client != null) {
            client.close();
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void theRealApiServerAcceptsTheSandboxsObjectsAndStoresThemAsMeant() throws Exception {
        String id = UUID.randomUUID().toString();
        SandboxSpec spec = KubernetesProvisionerTest.spec(id, 1, "10.0.0.5");
        provisioner.provision(spec);

        Pod pod = client.pods().inNamespace(NS).withName("sbx-" + id).get();
        assertThat(pod.getApiVersion()).isEqualTo("v1");
        assertThat(pod.getMetadata().getLabels()).containsEntry("stockade.dev/sandbox", id)
                .containsEntry("stockade.dev/org", spec.orgId()).containsEntry("stockade.dev/revision", "1");
        assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSpec().getEnableServiceLinks()).isFalse();
        assertThat(pod.getSpec().getHostname()).isEqualTo("happy-otter");
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Always");
        Container c = pod.getSpec().getContainers().get(0);
        assertThat(c.getImage()).isEqualTo("debian:bookworm-slim");
        // the server keeps quantities in its canonical form: compare amounts, not spellings
        assertThat(Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).longValueExact())
                .isEqualTo(512L << 20);
        assertThat(c.getResources().getLimits().get("cpu")).isEqualTo(new Quantity("500m"));
        assertThat(c.getResources().getRequests()).isEqualTo(c.getResources().getLimits());
        assertThat(pod.getStatus().getQosClass()).as("requests equal to limits, as the server reads them")
                .isEqualTo("Guaranteed");
        assertThat(c.getPorts()).extracting(p -> p.getProtocol() + "/" + p.getContainerPort())
                .containsExactly("TCP/8080", "TCP/3000");
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(c.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        Map<String, EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
        assertThat(env.get("HTTPS_PROXY").getValueFrom().getSecretKeyRef().getName()).isEqualTo("sbx-" + id + "-proxy");
        assertThat(env.get("HTTPS_PROXY").getValue()).isNull();
        assertThat(Serialization.asJson(pod)).as("the proxy token is not in the stored pod").doesNotContain(TOKEN);
        assertThat(pod.getSpec().getVolumes()).extracting(v -> v.getName()).containsExactly("data", "ca");
        assertThat(pod.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName())
                .isEqualTo("sbx-" + id + "-data");

        Secret proxy = client.secrets().inNamespace(NS).withName("sbx-" + id + "-proxy").get();
        assertThat(proxy.getType()).isEqualTo("Opaque");
        assertThat(proxy.getStringData()).as("the server stores stringData as data").isNullOrEmpty();
        assertThat(decoded(proxy, "HTTPS_PROXY")).isEqualTo("http://sandbox:" + TOKEN + "@10.0.0.5:3128");
        assertThat(decoded(client.secrets().inNamespace(NS).withName("sbx-" + id + "-ca").get(), "ca.crt"))
                .startsWith("-----BEGIN CERTIFICATE-----");
        PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(NS).withName("sbx-" + id + "-data")
                .get();
        assertThat(claim.getSpec().getResources().getRequests().get("storage")).isEqualTo(new Quantity("1Gi"));
        assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");

        NetworkPolicy policy = client.network().v1().networkPolicies().inNamespace(NS).withName("sbx-" + id + "-egress")
                .get();
        assertThat(policy.getApiVersion()).isEqualTo("networking.k8s.io/v1");
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of("stockade.dev/sandbox", id));
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Egress");
        assertThat(policy.getSpec().getIngress()).isNullOrEmpty();
        assertThat(policy.getSpec().getEgress()).hasSize(1);
        NetworkPolicyEgressRule only = policy.getSpec().getEgress().get(0);
        assertThat(only.getTo()).singleElement().satisfies(to -> assertThat(to.getIpBlock().getCidr())
                .isEqualTo("10.0.0.5/32"));
        assertThat(only.getPorts()).singleElement().satisfies(p -> assertThat(p.getProtocol() + "/"
                + p.getPort().getIntVal()).isEqualTo("TCP/3128"));

        assertThat(provisioner.status(id).phase()).isEqualTo("running");
        assertThat(pod(id).getSpec().getNodeName()).isEqualTo(LoopbackNode.NAME);
    }

    @Test
    void aPodTheServerRefusesIsAClearProblemWithItsValidationMessageAndNoToken() {
        String id = UUID.randomUUID().toString();
        SandboxSpec spec = KubernetesProvisionerTest.spec(id, 1, "10.0.0.5");
        SandboxSpec badPort = new SandboxSpec(spec.sandboxId(), spec.orgId(), spec.projectId(), spec.slug(), 1, null,
                spec.cpuMillis(), spec.memoryBytes(), spec.env(), spec.egress(), List.of(70000));
        assertThatThrownBy(() -> provisioner.provision(badPort)).isInstanceOf(ProvisionException.class)
                .hasMessageContaining("the cluster refused the sandbox's objects: Invalid (422)")
                .hasMessageContaining("spec.containers[0].ports[0].containerPort")
                .hasMessageContaining("must be between 1 and 65535")
                .hasMessageNotContaining(TOKEN);
        assertThat(pod(id)).as("nothing runs").isNull();
    }

    @Test
    void aNetworkPolicyTheServerRefusesStopsProvisionBeforeAnythingElseIsWritten() {
        String id = UUID.randomUUID().toString();
        SandboxSpec spec = KubernetesProvisionerTest.spec(id, 1, "10.0.0.5");
        SandboxSpec badProxyPort = new SandboxSpec(spec.sandboxId(), spec.orgId(), spec.projectId(), spec.slug(), 1,
                null, spec.cpuMillis(), spec.memoryBytes(), spec.env(), new SandboxSpec.EgressRoute("10.0.0.5", 70000,
                TOKEN, null), spec.ports());
        assertThatThrownBy(() -> provisioner.provision(badProxyPort)).isInstanceOf(ProvisionException.class)
                .hasMessageContaining("Invalid (422)").hasMessageContaining("spec.egress[0].ports[0].port")
                .hasMessageNotContaining(TOKEN);
        assertThat(client.secrets().inNamespace(NS).withName("sbx-" + id + "-proxy").get()).isNull();
        assertThat(pod(id)).isNull();
    }

    @Test
    void aNamespaceWithoutItsDefaultServiceAccountRefusesThePodAndProvisionSaysWhy() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("fresh").endMetadata().build())
                .create();
        provisioner = new KubernetesProvisioner(client, KubernetesSettings.defaults("fresh"), PLATFORM);
        String id = UUID.randomUUID().toString();
        assertThatThrownBy(() -> provisioner.provision(KubernetesProvisionerTest.spec(id, 1, "10.0.0.5")))
                .isInstanceOf(ProvisionException.class).hasMessageContaining("Forbidden (403)")
                .hasMessageContaining("serviceaccount \"default\" not found").hasMessageNotContaining(TOKEN);
    }

    @Test
    void theDnsRuleIsAcceptedAndOn120NamespacesCarryNoNameLabelForItToMatch() throws Exception {
        provisioner = new KubernetesProvisioner(client, KubernetesSettings.defaults(NS).withDns(true), PLATFORM);
        String id = UUID.randomUUID().toString();
        provisioner.provision(KubernetesProvisionerTest.spec(id, 1, "fd00::5"));
        NetworkPolicy policy = client.network().v1().networkPolicies().inNamespace(NS).withName("sbx-" + id + "-egress")
                .get();
        assertThat(policy.getSpec().getEgress().get(0).getTo().get(0).getIpBlock().getCidr())
                .isEqualTo("fd00:0:0:0:0:0:0:5/128");
        assertThat(policy.getSpec().getEgress().get(1).getTo().get(0).getNamespaceSelector().getMatchLabels())
                .isEqualTo(Map.of("kubernetes.io/metadata.name", "kube-system"));
        // 1.21 labels every namespace with its name; 1.20 does not, so there the install labels kube-system itself
        assertThat(client.namespaces().withName("kube-system").get().getMetadata().getLabels())
                .doesNotContainKey("kubernetes.io/metadata.name");
    }

    @Test
    void stopKeepsTheVolumeAndDeleteRemovesTheRestWhileTheClaimWaitsForItsProtection() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(KubernetesProvisionerTest.spec(id, 1, "10.0.0.5"));
        String claimUid = claim(id).getMetadata().getUid();

        provisioner.stop(id);
        assertThat(pod(id)).isNull();
        assertThat(provisioner.status(id).phase()).isEqualTo("absent");
        provisioner.provision(KubernetesProvisionerTest.spec(id, 2, "10.0.0.5"));
        assertThat(pod(id).getMetadata().getLabels()).containsEntry("stockade.dev/revision", "2");
        assertThat(claim(id).getMetadata().getUid()).isEqualTo(claimUid);

        provisioner.delete(id);
        assertThat(pod(id)).isNull();
        assertThat(client.secrets().inNamespace(NS).withName("sbx-" + id + "-proxy").get()).isNull();
        assertThat(client.secrets().inNamespace(NS).withName("sbx-" + id + "-ca").get()).isNull();
        assertThat(client.network().v1().networkPolicies().inNamespace(NS).withName("sbx-" + id + "-egress").get())
                .isNull();
        // the claim is marked for deletion; the controller-manager (absent here) removes it once no pod uses it
        assertThat(claim(id).getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(claim(id).getMetadata().getFinalizers()).contains("kubernetes.io/pvc-protection");
        provisioner.delete(id); // again: nothing left to refuse
    }

    @Test
    void execTravelsThroughTheApiServerToTheKubeletAndBringsBackOutputAndExitStatus() throws Exception {
        String id = UUID.randomUUID().toString();
        provisioner.provision(KubernetesProvisionerTest.spec(id, 1, "10.0.0.5"));
        try (ExecProcess exec = provisioner.exec(id, new ExecRequest(List.of("sh", "-c", "echo out; echo err >&2; exit 3"),
                false, 0, 0))) {
            assertThat(exec.exit().get(60, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(text(exec.stdout())).isEqualTo("out\n");
            assertThat(text(exec.stderr())).isEqualTo("err\n");
        }
        KubeletEndpoint.Call call = kubelet.calls.get(kubelet.calls.size() - 1);
        assertThat(call.target()).startsWith("/exec/" + NS + "/sbx-" + id + "/sandbox?");
        assertThat(call.caller()).as("the API server authenticates to the kubelet").contains("kube-apiserver-kubelet-client");

        try (ExecProcess exec = provisioner.exec(id, new ExecRequest(List.of("sh", "-c", "read line; echo got $line"),
                true, 80, 24))) {
            exec.stdin().write("hello\n".getBytes(StandardCharsets.UTF_8));
            exec.stdin().flush();
            assertThat(exec.exit().get(60, TimeUnit.SECONDS)).isZero();
            assertThat(text(exec.stdout())).isEqualTo("got hello\n");
        }
        assertThat(kubelet.calls.get(kubelet.calls.size() - 1).target()).contains("tty=1");
    }

    /**
     * Everything a stream of the exec carries. fabric8 ends the streams of a command that exited non-zero with an
     * IOException in place of the end of stream, after every byte that arrived (PodExec's readers stop at either).
     */
    private static String text(java.io.InputStream in) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            assertThat(e.getCause()).as("only the exit status ends a stream early").hasMessageContaining("exit code");
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Pod pod(String id) {
        return client.pods().inNamespace(NS).withName("sbx-" + id).get();
    }

    private static PersistentVolumeClaim claim(String id) {
        return client.persistentVolumeClaims().inNamespace(NS).withName("sbx-" + id + "-data").get();
    }

    private static String decoded(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
}
