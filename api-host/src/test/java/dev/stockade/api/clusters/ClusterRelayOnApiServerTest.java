package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.clusters.relay.ClusterRelay;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import dev.stockade.testing.KubeApiServer;
import dev.stockade.testing.ThrowawayPki;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster proxy in relay mode in front of a real kube-apiserver (v1.20.2, {@link KubeApiServer}): the relay calls
 * it with a real service-account token (TokenRequest) and impersonates the sandbox and its project's group, so the
 * cluster's own RBAC decides what a sandbox may do. Direct mode, where the API server verifies the platform's request
 * JWTs itself (OIDC with a discovery document served for the project's issuer), is in
 * {@link ClusterStreamsOnApiServerTest}.
 */
@MicronautTest(transactional = false)
class ClusterRelayOnApiServerTest extends PlatformTest {
    static final String NS = "team";

    KubeApiServer api;
    KubernetesClient admin;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("clusters.relay-poll-wait", "1s");
    }

    @BeforeAll
    void startApiServer() {
        api = KubeApiServer.start();
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(api.url())
                .withCaCertData(ThrowawayPki.base64(api.pki().caCertificate())).withOauthToken(api.token()).build();
        admin = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
        for (String ns : new String[] {NS, "stockade-system"}) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                    .create();
            admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
                    .withName("default").endMetadata().build()).create();
        }
        // the relay's identity: may impersonate users and groups, nothing else
        admin.serviceAccounts().inNamespace("stockade-system").resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("relay").endMetadata().build()).create();
        admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName("stockade-relay")
                .endMetadata().addNewRule().withApiGroups("").withResources("users", "groups")
                .withVerbs("impersonate").endRule().build()).create();
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
                .withName("stockade-relay").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("ClusterRole").withName("stockade-relay").endRoleRef().addNewSubject()
                .withKind("ServiceAccount").withName("relay").withNamespace("stockade-system").endSubject().build())
                .create();
        admin.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("worker").endMetadata()
                .withNewSpec().withAutomountServiceAccountToken(false).addNewContainer().withName("main")
                .withImage("debian:bookworm-slim").endContainer().endSpec().build()).create();
    }

    @AfterAll
    void stopApiServer() {
        if (admin != null) {
            admin.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void theClustersRbacDecidesWhatTheImpersonatedSandboxMayDo() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "real-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        Http.Response cluster = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", "real"));
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s")).text("token");
        String clusterToken = http.post("/v1/auth/cluster-token", sandbox, null).text("token");
        // the project's members may read pods in the team namespace, and nothing else
        String group = org + "/" + project + ":member";
        admin.rbac().roles().inNamespace(NS).resource(new RoleBuilder().withNewMetadata().withName("read-pods-" + project)
                .endMetadata().addNewRule().withApiGroups("").withResources("pods").withVerbs("get", "list")
                .endRule().build()).create();
        admin.rbac().roleBindings().inNamespace(NS).resource(new RoleBindingBuilder().withNewMetadata()
                .withName("read-pods-" + project).endMetadata().withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName("read-pods-" + project)
                .endRoleRef().addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("Group")
                .withName(group).endSubject().build()).create();
        String saToken = admin.serviceAccounts().inNamespace("stockade-system").withName("relay")
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
        Path tokenFile = dev.stockade.api.support.Scratch.directory("relay-sa").resolve("token");
        Files.writeString(tokenFile, saToken);

        ClusterRelay relay = new ClusterRelay(new ClusterRelay.Settings(http.base(),
                UUID.fromString(cluster.text("id")), UUID.fromString(project), cluster.text("tunnelToken"),
                URI.create(api.url()), HttpClient.newBuilder().sslContext(api.clientTls()).build(), tokenFile));
        CompletableFuture<Void> running = CompletableFuture.runAsync(relay::run);
        try {
            Await.until("the relay to connect", () -> http.get("/v1/clusters/" + cluster.text("id"), owner).body()
                    .path("relayConnected").asBoolean());
            String proxy = "/v1/clusters/" + cluster.text("id") + "/proxy";
            Http.Response pods = http.get(proxy + "/api/v1/namespaces/" + NS + "/pods", clusterToken);
            assertThat(pods.status()).as(pods.raw()).isEqualTo(200);
            assertThat(pods.body().path("kind").asText()).isEqualTo("PodList");
            assertThat(pods.body().at("/items/0/metadata/name").asText()).isEqualTo("worker");

            Http.Response secrets = http.get(proxy + "/api/v1/namespaces/" + NS + "/secrets", clusterToken);
            assertThat(secrets.status()).as(secrets.raw()).isEqualTo(403);
            assertThat(secrets.body().path("reason").asText()).isEqualTo("Forbidden");
            assertThat(secrets.body().path("message").asText()).as("the server judged the sandbox, not the relay")
                    .contains("User \"sandbox-token:").contains("cannot list resource \"secrets\"");
            Http.Response elsewhere = http.get(proxy + "/api/v1/namespaces/stockade-system/pods", clusterToken);
            assertThat(elsewhere.status()).as(elsewhere.raw()).isEqualTo(403);
        } finally {
            relay.stop();
            running.handle((v, e) -> null).get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
