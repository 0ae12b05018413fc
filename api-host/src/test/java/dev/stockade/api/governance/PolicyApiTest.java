package dev.stockade.api.governance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@MicronautTest(transactional = false)
class PolicyApiTest extends PlatformTest {
    private static final String YAML = """
            name: baseline
            allowedDomains:
            - pattern: github.com
              verdict: allow
            """;

    private static Map<String, Object> policy(String name) {
        return Map.of("name", name, "allowedDomains", List.of(Map.of("pattern", "github.com", "verdict", "allow")));
    }

    @Test
    void orgPoliciesAreCreatedListedReadUpdatedAndDeletedAndAudited() {
        String owner = ownerToken();
        String org = createOrg(owner, "gov");
        Http.Response created = http.send("POST", "/v1/orgs/" + org + "/policies", owner, "application/yaml", YAML);
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        assertThat(created.text("name")).isEqualTo("baseline");
        assertThat(created.text("scope")).isEqualTo("org");
        String path = "/v1/orgs/" + org + "/policies/" + created.text("id");
        assertThat(http.get(path, owner).body().path("policy").path("allowedDomains").get(0).path("pattern").asText())
                .isEqualTo("github.com");
        assertThat(http.get("/v1/orgs/" + org + "/policies", owner).body().path("items")).hasSize(1);

        // omitted keys keep, an explicit empty array clears, name is always written
        Http.Response renamed = http.send("PATCH", path, owner, "application/json", Map.of("name", "renamed"));
        assertThat(renamed.status()).as(renamed.raw()).isEqualTo(200);
        assertThat(renamed.body().path("policy").path("allowedDomains")).hasSize(1);
        Http.Response cleared = http.send("PATCH", path, owner, "application/json",
                Map.of("name", "renamed", "allowedDomains", List.of()));
        assertThat(cleared.status()).as(cleared.raw()).isEqualTo(200);
        assertThat(cleared.text("name")).isEqualTo("renamed");
        JsonNode domains = http.get(path, owner).body().path("policy").path("allowedDomains");
        assertThat(domains.isMissingNode() || domains.isEmpty()).as(domains.toString()).isTrue();

        assertThat(http.delete(path, owner).status()).isEqualTo(204);
        assertThat(problem(http.get(path, owner), 404)).isEqualTo("not_found");
        JsonNode trail = http.get("/v1/orgs/" + org + "/audit-trail?kind=policy", owner).body().path("items");
        assertThat(trail).hasSize(4);
    }

    @Test
    void anUpdateWithoutNameOrWithNullIsRefusedAndChangesNothing() {
        String owner = ownerToken();
        String org = createOrg(owner, "gov-upd");
        String path = "/v1/orgs/" + org + "/policies/" + http.post("/v1/orgs/" + org + "/policies", owner,
                policy("keep")).text("id");
        Http.Response noName = http.send("PATCH", path, owner, "application/json", Map.of("allowedDomains", List.of()));
        assertThat(problem(noName, 400)).isEqualTo("validation_failed");
        assertThat(noName.body().path("errors").get(0).path("code").asText()).isEqualTo("missing-key");
        Http.Response nulled = http.send("PATCH", path, owner, "application/yaml", "name: keep\nallowedDomains: null\n");
        assertThat(problem(nulled, 400)).isEqualTo("validation_failed");
        JsonNode error = nulled.body().path("errors").get(0);
        assertThat(error.path("code").asText()).isEqualTo("null-value");
        assertThat(error.path("pointer").asText()).isEqualTo("/allowedDomains");
        assertThat(error.path("line").asInt()).isEqualTo(2);
        assertThat(http.get(path, owner).body().path("policy").path("allowedDomains")).hasSize(1);
    }

    @Test
    void invalidPoliciesCarryTheCoresCodesPointersAndPositions() {
        String owner = ownerToken();
        String org = createOrg(owner, "gov-bad");
        Http.Response unknown = http.send("POST", "/v1/orgs/" + org + "/policies", owner, "application/yaml",
                "name: x\nallowedDomainz: []\n");
        assertThat(problem(unknown, 400)).isEqualTo("validation_failed");
        JsonNode e = unknown.body().path("errors").get(0);
        assertThat(e.path("code").asText()).isEqualTo("unknown-key");
        assertThat(e.path("pointer").asText()).isEqualTo("/allowedDomainz");
        assertThat(e.path("line").asInt()).isEqualTo(2);
        assertThat(e.path("column").asInt()).isEqualTo(1);

        Http.Response wrongType = http.send("POST", "/v1/orgs/" + org + "/policies", owner, "text/yaml",
                "name: x\nallowedDomains: github.com\n");
        assertThat(problem(wrongType, 400)).isEqualTo("validation_failed");
        assertThat(wrongType.body().path("errors").get(0).path("code").asText()).isEqualTo("wrong-type");
        assertThat(wrongType.body().path("errors").get(0).path("pointer").asText()).isEqualTo("/allowedDomains");

        Http.Response noName = http.post("/v1/orgs/" + org + "/policies", owner, Map.of("allowedDomains", List.of()));
        assertThat(problem(noName, 400)).isEqualTo("validation_failed");
        assertThat(noName.body().path("errors").get(0).path("code").asText()).isEqualTo("missing-key");

        assertThat(http.get("/v1/orgs/" + org + "/policies", owner).body().path("items")).isEmpty();
        assertThat(http.get("/v1/orgs/" + org + "/audit-trail?kind=policy", owner).body().path("items")).isEmpty();
    }

    @Test
    void namesAreUniquePerScopeAndOtherScopesAreNotFound() {
        String owner = ownerToken();
        String org = createOrg(owner, "gov-names");
        String project = createProject(owner, org, "p");
        String orgPolicy = http.post("/v1/orgs/" + org + "/policies", owner, policy("same")).text("id");
        assertThat(problem(http.post("/v1/orgs/" + org + "/policies", owner, policy("same")), 409))
                .isEqualTo("conflict");
        // the same name in a project is another scope
        Http.Response inProject = http.post("/v1/projects/" + project + "/policies", owner, policy("same"));
        assertThat(inProject.status()).as(inProject.raw()).isEqualTo(201);
        assertThat(inProject.text("scope")).isEqualTo("project");
        String other = http.post("/v1/projects/" + project + "/policies", owner, policy("other")).text("id");
        assertThat(problem(http.send("PATCH", "/v1/projects/" + project + "/policies/" + other, owner,
                "application/json", Map.of("name", "same")), 409)).isEqualTo("conflict");
        // an org policy is not a project policy
        assertThat(problem(http.get("/v1/projects/" + project + "/policies/" + orgPolicy, owner), 404))
                .isEqualTo("not_found");

        String foreignOrg = createOrg(owner, "gov-foreign");
        String foreignToken = createApiToken(owner, foreignOrg, "bot");
        assertThat(problem(http.get("/v1/orgs/" + org + "/policies/" + orgPolicy, foreignToken), 404))
                .isEqualTo("not_found");
        assertThat(problem(http.get("/v1/orgs/" + foreignOrg + "/policies/" + orgPolicy, owner), 404))
                .isEqualTo("not_found");
        // the org's own API token reads org policies but cannot write them
        String token = createApiToken(owner, org, "reader");
        assertThat(http.get("/v1/orgs/" + org + "/policies", token).body().path("items")).hasSize(1);
        assertThat(problem(http.post("/v1/orgs/" + org + "/policies", token, policy("nope")), 403))
                .isEqualTo("forbidden");
    }
}
