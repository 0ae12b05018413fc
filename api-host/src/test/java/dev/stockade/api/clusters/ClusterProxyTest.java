package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster proxy end to end: a sandbox's cluster JWT through the REST API to a real HTTP server standing for the
 * cluster's API server (loopback, explicitly allowed in this test's configuration).
 */
@MicronautTest(transactional = false)
class ClusterProxyTest extends PlatformTest {
    ApiServerStandIn apiServer;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("clusters.allow-loopback-unsafe", "true", "clusters.allow-plain-http", "true",
                "events.poll-interval", "200ms");
    }

    @BeforeAll
    void startApiServer() throws IOException {
        apiServer = new ApiServerStandIn();
    }

    @AfterAll
    void stopApiServer() {
        apiServer.close();
    }

    /** An org, a project, a cluster dialed directly, and a sandbox's cluster JWT. */
    record Setup(String org, String project, String cluster, String sandboxToken, String clusterToken) {
        String proxy(String path) {
            return "/v1/clusters/" + cluster + "/proxy" + path;
        }
    }

    private Setup setup() {
        String owner = ownerToken();
        String org = createOrg(owner, "proxy-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        Http.Response c = http.post("/v1/projects/" + project + "/clusters", owner,
                Map.of("name", "c", "apiServerUrl", apiServer.url()));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s")).text("token");
        String cluster = http.post("/v1/auth/cluster-token", sandbox, null).text("token");
        apiServer.seen.clear();
        return new Setup(org, project, c.text("id"), sandbox, cluster);
    }

    @Test
    void aSandboxReachesTheClusterWithARequestTokenSignedByItsProjectKey() throws Exception {
        Setup s = setup();
        Http.Response r = http.get(s.proxy("/api/v1/namespaces/default/pods?limit=5&labelSelector=app%3Dweb"),
                s.clusterToken());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(r.body().path("items").get(0).path("metadata").path("name").asText()).isEqualTo("web-1");
        assertThat(r.contentType()).startsWith("application/json");
        ApiServerStandIn.Seen seen = apiServer.seen.poll(10, TimeUnit.SECONDS);
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.rawPath()).isEqualTo("/api/v1/namespaces/default/pods");
        assertThat(seen.rawQuery()).isEqualTo("limit=5&labelSelector=app%3Dweb");
        String auth = seen.header("Authorization");
        assertThat(auth).startsWith("Bearer ").doesNotContain(s.clusterToken());

        SignedJWT jwt = SignedJWT.parse(auth.substring(7));
        JWKSet keys = JWKSet.parse(http.get("/v1/projects/" + s.project() + "/.well-known/jwks.json", null).raw());
        ECKey key = (ECKey) keys.getKeyByKeyId(jwt.getHeader().getKeyID());
        assertThat(jwt.verify(new ECDSAVerifier(key))).as("signed by the project's published key").isTrue();
        var claims = jwt.getJWTClaimsSet();
        assertThat(claims.getAudience()).containsExactly("stockade-cluster:" + s.cluster());
        assertThat(claims.getIssuer()).endsWith("/projects/" + s.project());
        assertThat(claims.getSubject()).startsWith("sandbox-token:");
        assertThat(claims.getStringListClaim("groups")).containsExactly(s.org() + "/" + s.project() + ":member");
        assertThat(claims.getExpirationTime().getTime() - claims.getIssueTime().getTime()).isEqualTo(60_000);
        Map<String, Object> request = claims.getJSONObjectClaim("request");
        assertThat(request).containsEntry("method", "GET")
                .containsEntry("path", "/api/v1/namespaces/default/pods?limit=5&labelSelector=app%3Dweb")
                .containsEntry("bodySha256", sha256(new byte[0]));
    }

    @Test
    void writesCarryTheirBodyAndOnlyAllowedHeadersCrossEitherWay() throws Exception {
        Setup s = setup();
        String patch = "{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}";
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        http.base().resolve(s.proxy("/api/v1/namespaces/default/pods/web-1")))
                .method("PATCH", HttpRequest.BodyPublishers.ofString(patch))
                .header("Authorization", "Bearer " + s.clusterToken())
                .header("Content-Type", "application/merge-patch+json")
                .header("Impersonate-User", "system:admin").header("Impersonate-Group", "system:masters")
                .header("Cookie", "a=b").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(patch);
        assertThat(r.headers().firstValue("Audit-Id")).hasValue("0f6b1d3e");
        assertThat(r.headers().firstValue("Set-Cookie")).as("the cluster's cookies stay there").isEmpty();
        ApiServerStandIn.Seen seen = apiServer.seen.poll(10, TimeUnit.SECONDS);
        assertThat(seen.method()).isEqualTo("PATCH");
        assertThat(seen.body()).isEqualTo(patch);
        assertThat(seen.header("Content-Type")).isEqualTo("application/merge-patch+json");
        assertThat(seen.header("Impersonate-User")).isNull();
        assertThat(seen.header("Impersonate-Group")).isNull();
        assertThat(seen.header("Cookie")).isNull();
        Map<String, Object> request = SignedJWT.parse(seen.header("Authorization").substring(7)).getJWTClaimsSet()
                .getJSONObjectClaim("request");
        assertThat(request).containsEntry("method", "PATCH")
                .containsEntry("bodySha256", sha256(patch.getBytes(StandardCharsets.UTF_8)));

        Http.Response created = http.send("POST", s.proxy("/api/v1/namespaces/default/configmaps"), s.clusterToken(),
                "application/json", "{\"kind\":\"ConfigMap\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.raw()).isEqualTo("{\"kind\":\"ConfigMap\"}");
        Http.Response empty = http.send("DELETE", s.proxy("/empty"), s.clusterToken(), null, null);
        assertThat(empty.status()).isEqualTo(204);
        assertThat(empty.raw()).isEmpty();
    }

    @Test
    void onlyTheClusterTokenOfTheClustersProjectIsAccepted() {
        Setup s = setup();
        String owner = ownerToken();
        String apiToken = createApiToken(owner, s.org(), "t");
        http.put("/v1/projects/" + s.project() + "/members/api-tokens/"
                + http.get("/v1/auth/me", apiToken).text("id"), owner, Map.of("role", "ADMIN"));
        String path = s.proxy("/api/v1/pods");
        assertThat(problem(http.get(path, null), 401)).isEqualTo("unauthenticated");
        assertThat(problem(http.get(path, owner), 401)).isEqualTo("unauthenticated");
        assertThat(problem(http.get(path, apiToken), 401)).isEqualTo("unauthenticated");
        assertThat(problem(http.get(path, s.sandboxToken()), 401)).isEqualTo("unauthenticated");
        assertThat(problem(http.get(path, s.clusterToken() + "x"), 401)).isEqualTo("unauthenticated");
        Setup other = setup();
        assertThat(problem(http.get(path, other.clusterToken()), 404)).as("another project's cluster token")
                .isEqualTo("not_found");
        assertThat(apiServer.seen).as("nothing reached the cluster").isEmpty();
        assertThat(http.get(path, s.clusterToken()).status()).isEqualTo(200);
    }

    @Test
    void pathsThatClimbOutAndClustersWithoutARouteAreRefused() {
        Setup s = setup();
        for (String bad : List.of("/api/%2e%2e/%2e%2e/secret", "/api/v1/x%2Fy", "/api//pods", "/api/%2E/pods")) {
            assertThat(problem(http.get(s.proxy(bad), s.clusterToken()), 400)).as(bad).isEqualTo("invalid_parameter");
        }
        String owner = ownerToken();
        Http.Response relayOnly = http.post("/v1/projects/" + s.project() + "/clusters", owner, Map.of("name", "r"));
        assertThat(problem(http.get("/v1/clusters/" + relayOnly.text("id") + "/proxy/api", s.clusterToken()), 502))
                .isEqualTo("cluster_unreachable");
        assertThat(apiServer.seen).isEmpty();
    }

    @Test
    void aHaltCutsOpenWatchesAndRefusesNewRequestsUntilLifted() throws Exception {
        Setup s = setup();
        String owner = ownerToken();
        HttpResponse<InputStream> watch = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        http.base().resolve(s.proxy("/api/v1/pods?watch=true")))
                .header("Authorization", "Bearer " + s.clusterToken()).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(watch.statusCode()).isEqualTo(200);
        BufferedReader lines = new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8));
        assertThat(lines.readLine()).contains("ADDED");

        assertThat(http.post("/v1/orgs/" + s.org() + "/halt", owner, null).status()).isEqualTo(200);
        CompletableFuture<Boolean> ended = CompletableFuture.supplyAsync(() -> {
            try {
                while (lines.readLine() != null) {
                    // bookmarks until the halt cuts the stream
                }
                return true;
            } catch (IOException cut) {
                return true;
            }
        });
        assertThat(ended.get(30, TimeUnit.SECONDS)).as("the open watch ended with the halt").isTrue();
        assertThat(apiServer.watchClosed.await(30, TimeUnit.SECONDS)).as("and the upstream stream was closed").isTrue();

        Http.Response refused = http.get(s.proxy("/api/v1/pods"), s.clusterToken());
        assertThat(problem(refused, 403)).isEqualTo("halted");
        assertThat(http.delete("/v1/orgs/" + s.org() + "/halt", owner).status()).isEqualTo(200);
        assertThat(http.get(s.proxy("/api/v1/pods"), s.clusterToken()).status()).isEqualTo(200);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
