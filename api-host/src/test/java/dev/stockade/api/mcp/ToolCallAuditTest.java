package dev.stockade.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.McpCalls;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every platform tool call leaves one audit entry, refusals included, in an organization someone reads (docs/mcp.md,
 * "Where refusals go"): API tokens' in their own organization; a person's in the target's organization when they
 * belong to it, else in each of theirs, else installation-wide (read by the owner at {@code GET /v1/audit-trail}).
 * A cross-tenant probe is never written into the probed organization's trail.
 */
@MicronautTest(transactional = false)
class ToolCallAuditTest extends OidcPlatformTest {
    private record Org(String id, String project) {
    }

    private Org org(String name) {
        String org = createOrg(ownerToken(), name + "-" + UUID.randomUUID());
        return new Org(org, createProject(ownerToken(), org, "p"));
    }

    private String person(String subject) {
        return token(subject, Map.of("email", subject + "@example.com", "email_verified", true));
    }

    private JsonNode call(String token, String tool, Map<String, Object> args) throws Exception {
        return new McpCalls(server.getURI()).call(token, tool, args);
    }

    /** The tool-call entries of {@code actor} in {@code orgId}'s trail (null: the installation-wide one). */
    private JsonNode entries(String orgId, String actor) {
        String path = orgId == null ? "/v1/audit-trail" : "/v1/orgs/" + orgId + "/audit-trail";
        Http.Response r = http.get(path + "?kind=tool-call&actorId=" + actor, ownerToken());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body().path("items");
    }

    private static void refused(JsonNode answer, String code) {
        assertThat(answer.path("result").path("isError").asBoolean()).as(answer.toString()).isTrue();
        assertThat(answer.path("result").path("structuredContent").path("code").asText()).as(answer.toString())
                .isEqualTo(code);
    }

    private static void deniedOnce(JsonNode entries, String tool, String code) {
        assertThat(entries).as(entries.toString()).hasSize(1);
        assertThat(entries.get(0).path("target").asText()).isEqualTo(tool);
        assertThat(entries.get(0).path("outcome").asText()).isEqualTo("denied");
        assertThat(entries.get(0).path("details").path("code").asText()).isEqualTo(code);
        assertThat(entries.get(0).path("details").path("via").asText()).isEqualTo("mcp");
    }

    @Test
    void anApiTokensRefusalsAndItsCrossTenantProbesAreRecordedInItsOwnOrganizationOnly() throws Exception {
        Org home = org("home");
        Org victim = org("victim");
        Http.Response t = http.post("/v1/orgs/" + home.id() + "/api-tokens", ownerToken(), Map.of("name", "t"));
        String tokenId = t.text("id");
        assertThat(http.put("/v1/projects/" + home.project() + "/members/api-tokens/" + tokenId, ownerToken(),
                Map.of("role", "MEMBER")).status()).isEqualTo(204);

        refused(call(t.text("token"), "get_project", Map.of("projectId", victim.project())), "not_found");
        deniedOnce(entries(home.id(), tokenId), "get_project", "not_found");
        assertThat(entries(victim.id(), tokenId)).isEmpty();

        // listed, but writing policies needs project admin: forbidden, recorded with the project
        refused(call(t.text("token"), "create_project_policy", Map.of("projectId", home.project(),
                "policy", Map.of("name", "x"))), "forbidden");
        JsonNode both = entries(home.id(), tokenId);
        assertThat(both).hasSize(2);
        assertThat(both.get(0).path("outcome").asText()).isEqualTo("denied");
        assertThat(both.get(0).path("projectId").asText()).isEqualTo(home.project());
    }

    @Test
    void aServicesOwnNotFoundIsADeniedEntryAndAnInstallationWideToolIsRecordedInTheTokensOrganization()
            throws Exception {
        Org home = org("svc");
        Http.Response t = http.post("/v1/orgs/" + home.id() + "/api-tokens", ownerToken(), Map.of("name", "t"));
        assertThat(http.put("/v1/projects/" + home.project() + "/members/api-tokens/" + t.text("id"), ownerToken(),
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        // authorized for the project; the policy id names nothing: the service's own refusal
        refused(call(t.text("token"), "get_project_policy", Map.of("projectId", home.project(),
                "policyId", UUID.randomUUID().toString())), "not_found");
        deniedOnce(entries(home.id(), t.text("id")), "get_project_policy", "not_found");
        // list_orgs names no organization: its entry still lands in the token's
        JsonNode listed = call(t.text("token"), "list_orgs", Map.of());
        assertThat(listed.path("result").path("isError").asBoolean()).as(listed.toString()).isFalse();
        JsonNode entries = entries(home.id(), t.text("id"));
        assertThat(entries.get(0).path("target").asText()).isEqualTo("list_orgs");
        assertThat(entries.get(0).path("outcome").asText()).isEqualTo("success");
    }

    @Test
    void aPersonsRefusalGoesToTheTargetsOrganizationWhenTheyBelongToIt() throws Exception {
        Org home = org("person-home");
        Org other = org("person-other");
        String token = person("auditee-member");
        String userId = http.get("/v1/auth/me", token).text("id");
        for (Org o : List.of(home, other)) {
            assertThat(http.put("/v1/orgs/" + o.id() + "/members/" + userId, ownerToken(), Map.of("role", "MEMBER"))
                    .status()).isEqualTo(204);
        }
        // an org member without a project role may not create a project: forbidden in home
        refused(call(token, "create_project", Map.of("orgId", home.id(), "name", "nope")), "forbidden");
        deniedOnce(entries(home.id(), userId), "create_project", "forbidden");
        assertThat(entries(other.id(), userId)).isEmpty();
        assertThat(entries(null, userId)).isEmpty();
    }

    @Test
    void aPersonsCrossTenantProbeGoesToEveryOrganizationTheyBelongToAndNeverToTheProbedOne() throws Exception {
        Org first = org("probe-a");
        Org second = org("probe-b");
        Org victim = org("probe-victim");
        String token = person("auditee-prober");
        String userId = http.get("/v1/auth/me", token).text("id");
        assertThat(http.put("/v1/orgs/" + first.id() + "/members/" + userId, ownerToken(), Map.of("role", "ADMIN"))
                .status()).isEqualTo(204);
        assertThat(http.put("/v1/orgs/" + second.id() + "/members/" + userId, ownerToken(), Map.of("role", "MEMBER"))
                .status()).isEqualTo(204);
        refused(call(token, "get_project", Map.of("projectId", victim.project())), "not_found");
        deniedOnce(entries(first.id(), userId), "get_project", "not_found");
        deniedOnce(entries(second.id(), userId), "get_project", "not_found");
        assertThat(entries(victim.id(), userId)).isEmpty();
        // a tool a person cannot list (the sandbox family) is unknown, and recorded the same way
        JsonNode unknown = call(token, "get_own_sandbox", Map.of());
        assertThat(unknown.path("error").path("code").asInt()).as(unknown.toString()).isEqualTo(-32602);
        JsonNode again = entries(first.id(), userId);
        assertThat(again).hasSize(2);
        assertThat(again.get(0).path("target").asText()).isEqualTo("get_own_sandbox");
        assertThat(again.get(0).path("details").path("reason").asText()).isEqualTo("unknown-tool");
    }

    @Test
    void aPersonInNoOrganizationIsRecordedInstallationWideWhichOnlyTheOwnerReads() throws Exception {
        Org victim = org("lonely-victim");
        String token = person("auditee-lonely");
        String userId = http.get("/v1/auth/me", token).text("id");
        refused(call(token, "list_projects", Map.of("orgId", victim.id())), "not_found");
        deniedOnce(entries(null, userId), "list_projects", "not_found");
        assertThat(entries(victim.id(), userId)).isEmpty();
        assertThat(problem(http.get("/v1/audit-trail", token), 403)).isEqualTo("forbidden");
    }
}
