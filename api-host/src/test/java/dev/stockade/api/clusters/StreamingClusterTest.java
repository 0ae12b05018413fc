package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.clusters.relay.ClusterRelay;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Scratch;
import dev.stockade.testing.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The world of the tests that stream through the cluster proxy to a real API server ({@link StreamingCluster}): an
 * organization and project whose cluster is in direct mode in front of that API server, a sandbox's cluster token the
 * server accepts (verified by its own OIDC authenticator), and the organization's audit trail to read back. Set up once
 * per class, with the node's kubelet from the subclass.
 */
abstract class StreamingClusterTest<K extends Kubelet> extends PlatformTest {
    protected final StreamingCluster<K> cluster;
    protected String owner;
    protected String org;
    protected String project;
    protected String clusterId;
    protected String clusterToken;

    StreamingClusterTest(String scratch, Kubelet.Starter<K> kubelets) {
        cluster = new StreamingCluster<>(Scratch.directory(scratch), kubelets);
    }

    /** The bounds on streams ({@code clusters.streams.*}) and any other property the subclass sets. */
    protected abstract Map<String, String> streamProperties();

    @Override
    protected final Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(streamProperties());
        p.put("config.public-url", cluster.issuerBase());
        p.put("clusters.allow-loopback-unsafe", "true");
        return p;
    }

    @BeforeEach
    void world() throws Exception {
        if (clusterId != null) {
            return;
        }
        owner = ownerToken();
        org = createOrg(owner, "streams-" + UUID.randomUUID());
        project = createProject(owner, org, "p");
        clusterId = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", "real")).text("id");
        cluster.start(http.base(), project, clusterId, org);
        Http.Response direct = http.patch("/v1/clusters/" + clusterId, owner, Map.of("apiServerUrl", cluster.api.url(),
                "caCertificate", cluster.caPem()));
        assertThat(direct.body().path("mode").asText()).as(direct.raw()).isEqualTo("direct");
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s"))
                .text("token");
        clusterToken = http.post("/v1/auth/cluster-token", sandbox, null).text("token");
        // 1.20's OIDC authenticator first reads the issuer's discovery document 10 s after the server starts
        try {
            Await.until("the API server to verify the project's request tokens", Await.LONG, () -> http.get("/v1/clusters/"
                    + clusterId + "/proxy/api/v1/namespaces/team/pods/worker", clusterToken).status() == 200);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the API server logged:\n" + cluster.api.logTail(), e);
        }
    }

    @AfterAll
    void stop() throws InterruptedException {
        cluster.close();
    }

    /** A relay-mode cluster of the project whose relay runs in this JVM; closing it stops the relay. */
    record RelayedCluster(String id, ClusterRelay relay, CompletableFuture<Void> running) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            relay.stop();
            running.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A second cluster of the project in relay mode, its relay connected: the relay calls the same API server with a
     * token allowed to impersonate (here the admin's), so the API server judges the sandbox's own group.
     */
    RelayedCluster relayedCluster(String name) throws IOException {
        Http.Response relayed = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", name));
        String id = relayed.text("id");
        Path tokenFile = Scratch.directory("relay-token").resolve("token");
        Files.writeString(tokenFile, cluster.api.token());
        ClusterRelay relay = new ClusterRelay(new ClusterRelay.Settings(http.base(), UUID.fromString(id),
                UUID.fromString(project), relayed.text("tunnelToken"), URI.create(cluster.api.url()),
                HttpClient.newBuilder().sslContext(cluster.api.clientTls()).build(), tokenFile));
        RelayedCluster started = new RelayedCluster(id, relay, CompletableFuture.runAsync(relay::run));
        Await.until("the relay to connect", () -> http.get("/v1/clusters/" + id, owner).body()
                .path("relayConnected").asBoolean());
        return started;
    }

    /** The pod's port: answers one line, as a service in the pod would. */
    static void answerOnce(ServerSocket pod) {
        try (Socket s = pod.accept()) {
            String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            s.getOutputStream().write(("pong: " + line + "\n").getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
        } catch (IOException e) {
            // the test fails on what it does not read back
        }
    }

    /** The newest audit entry of {@code kind} and {@code action} whose details carry {@code status}, once stored. */
    JsonNode awaitEntry(String kind, String action, int status) {
        return awaitEntry(kind, action, "status " + status, e -> e.at("/details/status").asInt() == status);
    }

    JsonNode awaitEntry(String kind, String action, String what, Predicate<JsonNode> matches) {
        return awaitEntry(kind, action, what, null, matches);
    }

    /** As {@link #awaitEntry(String, String, String, Predicate)}, among the entries recorded from {@code since} on. */
    JsonNode awaitEntry(String kind, String action, String what, Instant since, Predicate<JsonNode> matches) {
        JsonNode[] found = new JsonNode[1];
        // the trail takes instants to the microsecond: a bound taken a little earlier still only excludes older entries
        String query = "?kind=" + kind + "&limit=200" + (since == null ? ""
                : "&from=" + since.truncatedTo(ChronoUnit.MILLIS));
        Await.until("a `" + kind + "` `" + action + "` entry with " + what, () -> {
            for (JsonNode e : http.get("/v1/orgs/" + org + "/audit-trail" + query, owner).body().path("items")) {
                if (e.path("action").asText().equals(action) && matches.test(e)) {
                    found[0] = e;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }
}
