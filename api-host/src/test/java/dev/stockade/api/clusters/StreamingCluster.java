package dev.stockade.api.clusters;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.stockade.testing.KubeApiServer;
import dev.stockade.testing.ThrowawayPki;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * A real API server (v1.20.2) that verifies the platform's request JWTs itself, as a direct-mode cluster must: its
 * OIDC authenticator trusts the project's issuer ({@code {publicUrl}/projects/{projectId}}), whose discovery document
 * this fixture serves over TLS (1.20 reads only an https issuer) pointing at the platform's own published key set,
 * with the cluster's audience as client id and the {@code groups} claim as groups. A Node whose kubelet is a stand-in
 * ({@link KubeletStandIn} for the WebSocket protocols, {@link KubeletSpdyStandIn} for SPDY/3.1), a running pod
 * {@code worker} on it in two namespaces (its container {@code main} keeps stdin open for one attach, as
 * {@code kubectl run -i} makes it), and RBAC letting the project's group read both pods but exec, attach and
 * port-forward in {@link #ALLOWED} only.
 */
final class StreamingCluster<K extends Kubelet> implements AutoCloseable {
    static final String ALLOWED = "team";
    static final String OTHER = "other";
    static final String NODE = "loopback-node";

    private final HttpsServer discovery;
    private final ThrowawayPki discoveryPki;
    private final Kubelet.Starter<K> kubelets;
    private volatile URI platform;
    KubeApiServer api;
    KubernetesClient admin;
    K kubelet;

    /**
     * Starts the issuer's discovery endpoint: the platform's public URL must be {@link #issuerBase()}; the node's
     * kubelet comes from {@code kubelets} at {@link #start}.
     */
    StreamingCluster(Path scratch, Kubelet.Starter<K> kubelets) {
        this.kubelets = kubelets;
        discoveryPki = ThrowawayPki.create(scratch);
        var identity = discoveryPki.issue("issuer", "/CN=issuer", ThrowawayPki.Use.SERVER, List.of("127.0.0.1"),
                List.of());
        try {
            discovery = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        discovery.setHttpsConfigurator(new HttpsConfigurator(discoveryPki.sslContext(identity)));
        discovery.createContext("/projects/", exchange -> {
            String[] parts = exchange.getRequestURI().getPath().split("/"); // "", projects, id, .well-known, ...
            String issuer = issuerBase() + "/projects/" + parts[2];
            byte[] body = ("{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + platform.resolve("/v1/projects/" + parts[2]
                    + "/.well-known/jwks.json") + "\",\"response_types_supported\":[\"id_token\"],"
                    + "\"subject_types_supported\":[\"public\"],\"id_token_signing_alg_values_supported\":[\"ES256\"]}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        discovery.start();
    }

    String issuerBase() {
        return "https://127.0.0.1:" + discovery.getAddress().getPort();
    }

    /** Starts the API server trusting the project's issuer for the cluster's audience, then the node and pods. */
    void start(URI platformBase, String projectId, String clusterId, String org) throws InterruptedException {
        platform = platformBase;
        api = KubeApiServer.start(List.of("--oidc-issuer-url=" + issuerBase() + "/projects/" + projectId,
                "--oidc-client-id=stockade-cluster:" + clusterId, "--oidc-username-claim=sub",
                "--oidc-username-prefix=-", "--oidc-groups-claim=groups", "--oidc-signing-algs=ES256",
                "--oidc-ca-file=" + discoveryPki.caCertificate()));
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(api.url())
                .withCaCertData(ThrowawayPki.base64(api.pki().caCertificate())).withOauthToken(api.token()).build();
        admin = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory())
                .build();
        kubelet = kubelets.start(api.pki());
        admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().withNewStatus()
                .addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
                .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(kubelet.port()).endKubeletEndpoint()
                .endDaemonEndpoints().endStatus().build()).create();
        for (String ns : List.of(ALLOWED, OTHER)) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                    .create();
            admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
                    .withName("default").endMetadata().build()).create();
            runningPod(ns);
        }
        String group = org + "/" + projectId + ":member";
        role(ALLOWED, group, new RoleBuilder().withNewMetadata().withName("streams").endMetadata().addNewRule()
                .withApiGroups("").withResources("pods").withVerbs("get", "list").endRule().addNewRule()
                .withApiGroups("").withResources("pods/exec", "pods/attach", "pods/portforward")
                .withVerbs("get", "create").endRule().build());
        role(OTHER, group, new RoleBuilder().withNewMetadata().withName("readers").endMetadata().addNewRule()
                .withApiGroups("").withResources("pods").withVerbs("get", "list").endRule().build());
    }

    /** Creates {@code role} in {@code ns} and binds it to {@code group}. */
    private void role(String ns, String group, Role role) {
        admin.rbac().roles().inNamespace(ns).resource(role).create();
        admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder().withNewMetadata()
                .withName(role.getMetadata().getName()).endMetadata().withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(role.getMetadata().getName())
                .endRoleRef().addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("Group")
                .withName(group).endSubject().build()).create();
    }

    /** A pod bound to the node at create (the scheduler's act) with its status written as running (the kubelet's). */
    private void runningPod(String ns) {
        Pod pod = admin.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("worker")
                .endMetadata().withNewSpec().withNodeName(NODE).withAutomountServiceAccountToken(false)
                .addNewContainer().withName("main").withImage("debian:bookworm-slim").withStdin(true)
                .withStdinOnce(true).endContainer().endSpec().build())
                .create();
        admin.pods().inNamespace(ns).withName(pod.getMetadata().getName()).editStatus(p -> {
            p.setStatus(new PodStatusBuilder().withPhase("Running").withHostIP("127.0.0.1").withPodIP("10.1.0.7")
                    .addNewCondition().withType("Ready").withStatus("True").endCondition()
                    .addToContainerStatuses(new ContainerStatusBuilder().withName("main").withReady(true)
                            .withRestartCount(0).withImage("debian:bookworm-slim").withImageID("")
                            .withNewState().withNewRunning().withStartedAt("2026-11-27T00:00:00Z").endRunning()
                            .endState().build()).build());
            return p;
        });
    }

    /** The API server's CA, for the cluster's {@code caCertificate}. */
    String caPem() {
        try {
            return java.nio.file.Files.readString(api.pki().caCertificate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (kubelet != null) {
            kubelet.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (api != null) {
            api.close();
        }
        discovery.stop(0);
    }
}
