package dev.stockade.api.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

@MicronautTest(transactional = false)
class TenancyTest extends PlatformTest {

    @Test
    void theOwnerCreatesAnOrganizationAProjectAndAToken() {
        String owner = ownerToken();
        assertThat(http.get("/v1/auth/me", owner).text("type")).isEqualTo("installation-owner");
        String org = createOrg(owner, "acme");
        String project = createProject(owner, org, "web");
        String token = createApiToken(owner, org, "ci");
        assertThat(token).matches("stk_api_[0-9A-Za-z]{40}");

        Http.Response me = http.get("/v1/auth/me", token);
        assertThat(me.text("type")).isEqualTo("api-token");
        assertThat(me.text("orgId")).isEqualTo(org);
        assertThat(http.get("/v1/orgs", token).body().path("items")).hasSize(1);
        // the API token is not a member of the project yet: it lists none, and reading it is forbidden
        assertThat(http.get("/v1/orgs/" + org + "/projects", token).body().path("items")).isEmpty();
        assertThat(problem(http.get("/v1/projects/" + project, token), 403)).isEqualTo("forbidden");
        // an org admin grants it project MEMBER; the change is audited under kind project-member
        String tokenId = http.get("/v1/auth/me", token).text("id");
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + tokenId, owner,
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        assertThat(http.get("/v1/projects/" + project, token).text("name")).isEqualTo("web");
        Http.Response trail = http.get("/v1/orgs/" + org + "/audit-trail?kind=project-member", owner);
        assertThat(trail.body().path("items")).hasSize(1);
        assertThat(trail.body().path("items").get(0).path("target").asText()).isEqualTo(tokenId);
    }

    @Test
    void aRevokedTokenStopsWorkingAtOnce() {
        String owner = ownerToken();
        String org = createOrg(owner, "revocations");
        Http.Response created = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "short-lived"));
        String token = created.text("token");
        assertThat(http.get("/v1/auth/me", token).status()).isEqualTo(200);
        assertThat(http.delete("/v1/api-tokens/" + created.text("id"), owner).status()).isEqualTo(204);
        assertThat(problem(http.get("/v1/auth/me", token), 401)).isEqualTo("unauthenticated");
        // the list never shows a token, only its prefix
        assertThat(http.get("/v1/orgs/" + org + "/api-tokens", owner).raw()).doesNotContain(token);
    }

    @Test
    void anotherOrganizationsResourcesAreNotFound() {
        String owner = ownerToken();
        String a = createOrg(owner, "tenant-a");
        String b = createOrg(owner, "tenant-b");
        String projectB = createProject(owner, b, "secret");
        String tokenA = createApiToken(owner, a, "a-bot");
        assertThat(problem(http.get("/v1/orgs/" + b, tokenA), 404)).isEqualTo("not_found");
        assertThat(problem(http.get("/v1/projects/" + projectB, tokenA), 404)).isEqualTo("not_found");
        assertThat(problem(http.get("/v1/orgs/" + b + "/audit-trail", tokenA), 404)).isEqualTo("not_found");
        assertThat(problem(http.get("/v1/orgs/not-a-uuid", tokenA), 400)).isEqualTo("invalid_parameter");
    }

    @Test
    void deletingAnOrganizationWithProjectsIsRefusedNamingThem() {
        String owner = ownerToken();
        String org = createOrg(owner, "busy");
        String project = createProject(owner, org, "keeps-it-busy");
        Http.Response refused = http.delete("/v1/orgs/" + org, owner);
        assertThat(problem(refused, 409)).isEqualTo("dependants_exist");
        assertThat(refused.text("detail")).contains("keeps-it-busy");
        assertThat(http.delete("/v1/projects/" + project, owner).status()).isEqualTo(204);
        // the project's audit history stays after it is deleted
        assertThat(http.get("/v1/orgs/" + org + "/audit-trail?projectId=" + project, owner).body().path("items").size())
                .isGreaterThanOrEqualTo(2);
        assertThat(http.delete("/v1/orgs/" + org, owner).status()).isEqualTo(204);
        assertThat(problem(http.get("/v1/orgs/" + org, owner), 404)).isEqualTo("not_found");
    }
}
