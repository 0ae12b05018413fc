package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Clusters CRUD, the tunnel token (shown once, stored as a hash, rotated) and bad input, through the REST API. */
@MicronautTest(transactional = false)
class ClusterApiTest extends PlatformTest {
    @Inject
    ClusterService clusters;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("clusters.allow-plain-http", "true");
    }

    @Test
    void aClusterIsCreatedListedReadUpdatedAndDeleted() {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "crud-" + UUID.randomUUID()), "p");
        Http.Response created = http.post("/v1/projects/" + project + "/clusters", owner,
                Map.of("name", "prod-eu", "description", "the EU production cluster"));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        assertThat(created.text("tunnelToken")).matches("stk_tun_[0-9A-Za-z]{40}");
        assertThat(created.text("mode")).isEqualTo("relay");
        assertThat(created.text("projectId")).isEqualTo(project);

        Http.Response got = http.get("/v1/clusters/" + id, owner);
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.text("name")).isEqualTo("prod-eu");
        assertThat(got.body().has("tunnelToken")).as("the tunnel token is shown once").isFalse();
        assertThat(got.raw()).doesNotContain(created.text("tunnelToken"));
        Http.Response list = http.get("/v1/projects/" + project + "/clusters", owner);
        assertThat(list.body().path("items")).hasSize(1);
        assertThat(list.raw()).doesNotContain(created.text("tunnelToken"));

        Http.Response updated = http.patch("/v1/clusters/" + id, owner,
                Map.of("name", "prod-eu-1", "apiServerUrl", "https://k8s.example.com:6443/"));
        assertThat(updated.status()).as(updated.raw()).isEqualTo(200);
        assertThat(updated.text("name")).isEqualTo("prod-eu-1");
        assertThat(updated.text("description")).as("omitted: untouched").isEqualTo("the EU production cluster");
        assertThat(updated.text("apiServerUrl")).isEqualTo("https://k8s.example.com:6443");
        assertThat(updated.text("mode")).isEqualTo("direct");
        Http.Response cleared = http.patch("/v1/clusters/" + id, owner, Map.of("apiServerUrl", ""));
        assertThat(cleared.body().path("apiServerUrl").isNull()).isTrue();
        assertThat(cleared.text("mode")).isEqualTo("relay");

        assertThat(http.delete("/v1/clusters/" + id, owner).status()).isEqualTo(204);
        assertThat(problem(http.get("/v1/clusters/" + id, owner), 404)).isEqualTo("not_found");
        assertThat(http.get("/v1/projects/" + project + "/clusters", owner).body().path("items")).isEmpty();
    }

    @Test
    void rotatingTheTunnelTokenShowsANewOneOnceAndTheOldOneStopsWorking() {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "rotate-" + UUID.randomUUID()), "p");
        Http.Response created = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", "c"));
        UUID id = UUID.fromString(created.text("id"));
        String first = created.text("tunnelToken");
        assertThat(clusters.tunnelTokenMatches(id, first)).isTrue();

        Http.Response rotated = http.post("/v1/clusters/" + id + "/rotate-tunnel-token", owner, null);
        assertThat(rotated.status()).as(rotated.raw()).isEqualTo(200);
        String second = rotated.text("tunnelToken");
        assertThat(second).matches("stk_tun_[0-9A-Za-z]{40}").isNotEqualTo(first);
        assertThat(clusters.tunnelTokenMatches(id, first)).isFalse();
        assertThat(clusters.tunnelTokenMatches(id, second)).isTrue();
        assertThat(clusters.tunnelTokenMatches(id, "stk_tun_short")).isFalse();
        assertThat(http.get("/v1/clusters/" + id, owner).raw()).doesNotContain(second);
        Http.Response audit = http.get("/v1/orgs/" + created.text("orgId") + "/audit-trail", owner);
        assertThat(audit.raw()).contains("rotate-tunnel-token").doesNotContain(first).doesNotContain(second);
    }

    @Test
    void concurrentCreatesOfOneNameMakeOneClusterAndConflicts() throws Exception {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "race-" + UUID.randomUUID()), "p");
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<Integer>> all = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                all.add(pool.submit(() -> http.post("/v1/projects/" + project + "/clusters", owner,
                        Map.of("name", "same")).status()));
            }
            List<Integer> statuses = new java.util.ArrayList<>();
            for (var f : all) {
                statuses.add(f.get(60, java.util.concurrent.TimeUnit.SECONDS));
            }
            assertThat(statuses).containsOnly(201, 409).containsOnlyOnce(201);
        } finally {
            pool.shutdownNow();
        }
        assertThat(http.get("/v1/projects/" + project + "/clusters", owner).body().path("items")).hasSize(1);
    }

    @Test
    void badInputIsRefusedWithAProblemAndChangesNothing() {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "bad-" + UUID.randomUUID()), "p");
        String base = "/v1/projects/" + project + "/clusters";
        assertThat(http.post(base, owner, Map.of("name", "taken")).status()).isEqualTo(201);
        Map<String, Map<String, Object>> bad = new java.util.LinkedHashMap<>();
        bad.put("no name", Map.of("description", "x"));
        bad.put("blank name", Map.of("name", " "));
        bad.put("control character", Map.of("name", "a\u0007b"));
        bad.put("unknown field", Map.of("name", "x", "kubeconfig", "..."));
        bad.put("number for text", Map.of("name", 5));
        bad.put("ftp url", Map.of("name", "x", "apiServerUrl", "ftp://k8s.example.com"));
        bad.put("relative url", Map.of("name", "x", "apiServerUrl", "/api"));
        bad.put("url with credentials", Map.of("name", "x", "apiServerUrl", "https://user:pw@k8s.example.com"));
        bad.put("url with a query", Map.of("name", "x", "apiServerUrl", "https://k8s.example.com/?a=b"));
        bad.put("metadata address", Map.of("name", "x", "apiServerUrl", "https://169.254.169.254"));
        bad.put("loopback (not allowed here)", Map.of("name", "x", "apiServerUrl", "https://127.0.0.1:6443"));
        bad.put("not a certificate", Map.of("name", "x", "apiServerUrl", "https://k8s.example.com",
                "caCertificate", "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n"));
        bad.put("certificate without url", Map.of("name", "x", "caCertificate", "x"));
        Map<String, Object> longName = new HashMap<>();
        longName.put("name", "n".repeat(101));
        bad.put("name too long", longName);
        for (Map.Entry<String, Map<String, Object>> c : bad.entrySet()) {
            Http.Response r = http.post(base, owner, c.getValue());
            assertThat(r.status()).as(c.getKey() + ": " + r.raw()).isEqualTo(400);
            problem(r, 400);
        }
        assertThat(problem(http.post(base, owner, Map.of("name", "taken")), 409)).isEqualTo("conflict");
        assertThat(problem(http.send("POST", base, owner, "application/json", "{\"name\":"), 400))
                .isEqualTo("malformed_json");
        assertThat(problem(http.get("/v1/clusters/not-a-uuid", owner), 400)).isEqualTo("invalid_parameter");
        assertThat(problem(http.get("/v1/clusters/" + UUID.randomUUID(), owner), 404)).isEqualTo("not_found");
        assertThat(http.get(base, owner).body().path("items")).as("nothing was written").hasSize(1);
        String id = http.get(base, owner).body().path("items").get(0).path("id").asText();
        problem(http.patch("/v1/clusters/" + id, owner, Map.of("apiServerUrl", "gopher://x")), 400);
        assertThat(http.get("/v1/clusters/" + id, owner).body().path("apiServerUrl").isNull()).isTrue();
    }
}
