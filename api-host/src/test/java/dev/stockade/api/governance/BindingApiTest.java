package dev.stockade.api.governance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.TestDatabase;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Policy bindings, the effective policy of an identity (the core's resolution under the org ceiling), and drift. */
@MicronautTest(transactional = false)
class BindingApiTest extends PlatformTest {

    private static Map<String, Object> policy(String name, String... allowed) {
        return Map.of("name", name, "networkDefaultVerdict", "deny", "allowedDomains",
                java.util.Arrays.stream(allowed).map(p -> Map.of("pattern", p, "verdict", "allow")).toList());
    }

    private String create(String path, String token, Object body) {
        Http.Response r = http.post(path, token, body);
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.text("id");
    }

    @Test
    void aProjectBindingReachesTheTokenClippedByTheCeilingAndDriftSaysWhatWasNotGranted() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "bound");
        String project = createProject(owner, org, "app");
        String ceiling = create("/v1/orgs/" + org + "/policies", owner, policy("ceiling", "*.github.com",
                "github.com"));
        String wants = create("/v1/projects/" + project + "/policies", owner, policy("wants-more", "api.github.com",
                "evil.test"));
        Http.Response token = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "ci"));
        String tokenId = token.text("id");

        String binding = create("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", wants, "apiTokenId", tokenId));
        Http.Response listed = http.get("/v1/projects/" + project + "/policy-bindings", owner);
        assertThat(listed.body().path("items")).hasSize(1);
        assertThat(listed.body().path("items").get(0).path("policyName").asText()).isEqualTo("wants-more");

        JsonNode effective = http.get("/v1/projects/" + project + "/policy-bindings/effective?apiTokenId=" + tokenId,
                owner).body();
        assertThat(effective.path("domains").toString()).contains("api.github.com").doesNotContain("evil.test  allow");
        assertThat(effective.path("drift").path("blockedDomainDetails").toString()).contains("evil.test");
        // the token, a project member, asks for its own effective policy without naming itself
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + tokenId, owner,
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        JsonNode own = http.get("/v1/projects/" + project + "/policy-bindings/effective", token.text("token")).body();
        assertThat(own.path("subjectId").asText()).isEqualTo(tokenId);

        JsonNode drift = http.get("/v1/orgs/" + org + "/policy-bindings/drift", owner).body().path("items");
        assertThat(drift).hasSize(1);
        assertThat(drift.get(0).path("kind").asText()).isEqualTo("binding");
        assertThat(drift.get(0).path("apiTokenId").asText()).isEqualTo(tokenId);
        assertThat(drift.get(0).path("bindingIds").get(0).asText()).isEqualTo(binding);
        assertThat(drift.get(0).path("drift").path("blockedDomainDetails").get(0).path("pattern").asText())
                .isEqualTo("evil.test");

        // the org binding of the ceiling policy itself adds no drift
        create("/v1/orgs/" + org + "/policy-bindings", owner, Map.of("policyId", ceiling, "apiTokenId", tokenId));
        assertThat(http.get("/v1/orgs/" + org + "/policy-bindings/drift", owner).body().path("items")).hasSize(1);

        assertThat(http.delete("/v1/projects/" + project + "/policy-bindings/" + binding, owner).status())
                .isEqualTo(204);
        assertThat(problem(http.get("/v1/projects/" + project + "/policy-bindings/" + binding, owner), 404))
                .isEqualTo("not_found");
        assertThat(http.get("/v1/orgs/" + org + "/policy-bindings/drift", owner).body().path("items")).isEmpty();
        JsonNode trail = http.get("/v1/orgs/" + org + "/audit-trail?kind=policy-binding", owner).body().path("items");
        assertThat(trail).hasSize(3);
        assertThat(governanceEvents(org)).isGreaterThanOrEqualTo(5); // 2 policies, 2 bindings, 1 unbinding
    }

    @Test
    void badBindingsAreRefusedAndChangeNothing() {
        String owner = ownerToken();
        String org = createOrg(owner, "strict-bindings");
        String project = createProject(owner, org, "app");
        String projectPolicy = create("/v1/projects/" + project + "/policies", owner, policy("p", "github.com"));
        String tokenId = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "t")).text("id");
        String base = "/v1/orgs/" + org + "/policy-bindings";

        // a project policy cannot be bound at org level
        Http.Response orgLevel = http.post(base, owner, Map.of("policyId", projectPolicy, "apiTokenId", tokenId));
        assertThat(problem(orgLevel, 400)).isEqualTo("validation_failed");
        assertThat(orgLevel.body().path("errors").get(0).path("code").asText()).isEqualTo("unknown-policy");
        // exactly one subject
        assertThat(problem(http.post(base, owner, Map.of("policyId", projectPolicy)), 400))
                .isEqualTo("validation_failed");
        // an unknown subject, an unknown field, a malformed id
        Http.Response nobody = http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", projectPolicy, "userId", java.util.UUID.randomUUID().toString()));
        assertThat(nobody.body().path("errors").get(0).path("code").asText()).isEqualTo("unknown-subject");
        assertThat(problem(http.post(base, owner, Map.of("policyId", projectPolicy, "apiTokenId", tokenId,
                "extra", 1)), 400)).isNotBlank();
        assertThat(problem(http.post(base, owner, Map.of("policyId", "nope", "apiTokenId", tokenId)), 400))
                .isNotBlank();
        // a duplicate binding
        String pb = "/v1/projects/" + project + "/policy-bindings";
        create(pb, owner, Map.of("policyId", projectPolicy, "apiTokenId", tokenId));
        assertThat(problem(http.post(pb, owner, Map.of("policyId", projectPolicy, "apiTokenId", tokenId)), 409))
                .isEqualTo("conflict");
        assertThat(http.get(base, owner).body().path("items")).isEmpty();
        assertThat(http.get(pb, owner).body().path("items")).hasSize(1);
    }

    private int governanceEvents(String org) throws Exception {
        String url = server.getApplicationContext().getProperty("datasources.default.url", String.class).orElseThrow();
        try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
             ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM events WHERE topic = 'governance'"
                     + " AND org_id = '" + org + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
