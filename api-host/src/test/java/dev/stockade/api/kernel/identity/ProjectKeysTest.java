package dev.stockade.api.kernel.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Project signing keys, cluster JWTs, sandbox tokens pinned to their project, and the revocation bound. */
@MicronautTest(transactional = false)
class ProjectKeysTest extends PlatformTest {

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("config.token-cache-ttl", "1s");
    }

    @Test
    void aClusterTokenIsSignedByTheProjectKeyLastsFifteenMinutesAndSurvivesOneRotation() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "keys");
        String project = createProject(owner, org, "k8s");
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s")).text("token");
        assertThat(http.get("/v1/auth/me", sandbox).text("projectId")).isEqualTo(project);

        String jwt = http.post("/v1/auth/cluster-token", sandbox, null).text("token");
        SignedJWT parsed = SignedJWT.parse(jwt);
        Duration life = Duration.between(parsed.getJWTClaimsSet().getIssueTime().toInstant(),
                parsed.getJWTClaimsSet().getExpirationTime().toInstant());
        assertThat(life).isEqualTo(Duration.ofMinutes(15));
        JWKSet published = JWKSet.parse(http.get("/v1/projects/" + project + "/.well-known/jwks.json", null).raw());
        ECKey key = (ECKey) published.getKeyByKeyId(parsed.getHeader().getKeyID());
        assertThat(parsed.verify(new ECDSAVerifier(key))).isTrue();
        assertThat(http.get("/v1/projects/" + project + "/public-key", null).body().path("key").path("kid").asText())
                .isEqualTo(key.getKeyID());

        // a cluster token is refused everywhere but the cluster proxy; a sandbox token only reaches its project
        assertThat(problem(http.get("/v1/auth/me", jwt), 401)).isEqualTo("unauthenticated");
        String other = createProject(owner, org, "other");
        assertThat(problem(http.get("/v1/projects/" + other + "/members", sandbox), 403)).isEqualTo("forbidden");

        Http.Response rotated = http.post("/v1/projects/" + project + "/rotate-keys", owner, null);
        assertThat(rotated.status()).isEqualTo(200);
        JWKSet after = JWKSet.parse(http.get("/v1/projects/" + project + "/.well-known/jwks.json", null).raw());
        assertThat(after.getKeys()).hasSize(2); // the retired key stays published for one token lifetime
        assertThat(after.getKeys().get(0).getKeyID()).isEqualTo(rotated.text("kid"));
        String fresh = http.post("/v1/auth/cluster-token", sandbox, null).text("token");
        assertThat(SignedJWT.parse(fresh).getHeader().getKeyID()).isEqualTo(rotated.text("kid"));
    }

    @Test
    void aRevocationMadeByAnotherReplicaTakesEffectWithinTheCacheBound() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "replicas");
        Http.Response created = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "elsewhere"));
        String token = created.text("token");
        assertThat(http.get("/v1/auth/me", token).status()).isEqualTo(200); // now cached on this replica
        // another replica revokes it: only the shared database changes, this replica's cache is untouched
        String url = server.getApplicationContext().getProperty("datasources.default.url", String.class).orElseThrow();
        try (Connection c = DriverManager.getConnection(url, dev.stockade.api.support.TestDatabase.user(),
                dev.stockade.api.support.TestDatabase.password())) {
            c.createStatement().executeUpdate("UPDATE api_tokens SET revoked_at = now() WHERE id = '"
                    + created.text("id") + "'");
        }
        Await.until("the revoked token refused (1 s cache; wide: a loaded machine stalls)", Duration.ofSeconds(15),
                () -> http.get("/v1/auth/me", token).status() != 200);
        assertThat(problem(http.get("/v1/auth/me", token), 401)).isEqualTo("unauthenticated");
    }
}
