package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Organization inference keys (spec: Authentication rule 3; release 0.30.0): only a signed-in org administrator
 * reads and sets them, the key is never answered, and a call then sends the organization's key upstream instead of
 * the deployment's; without a key of either, the backend is not available.
 */
@MicronautTest(transactional = false)
class OrgInferenceKeysTest extends OidcPlatformTest {
    private static final String ORG_KEY = "sk-org-own-4be1d2";

    private final ProviderDouble upstream = ProviderDouble.start();

    @Override
    protected Map<String, String> oidcTestProperties() {
        // openai is served, with no deployment key: an organization must bring its own
        return Map.of("inference.allow-loopback-unsafe", "true", "inference.openai.enabled", "true",
                "inference.openai.base-url", upstream.baseUrl());
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void aSignedInOrgAdminSetsTheKeyThatCallsThenSend() {
        String owner = ownerToken();
        String org = createOrg(owner, "keys");
        String project = createProject(owner, org, "agents");
        String admin = token("ada", Map.of("email", "ada@example.com", "email_verified", true));
        String adminId = http.get("/v1/auth/me", admin).text("id");
        assertThat(http.put("/v1/orgs/" + org + "/members/" + adminId, owner, Map.of("role", "ADMIN")).status())
                .isEqualTo(204);
        String apiToken = createApiToken(owner, org, "agent");
        String apiTokenId = http.get("/v1/orgs/" + org + "/api-tokens", owner).body().path("items").get(0)
                .path("id").asText();
        http.put("/v1/projects/" + project + "/members/api-tokens/" + apiTokenId, owner, Map.of("role", "MEMBER"));
        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "gpt",
                "managedInference", Map.of("enabled", true, "provider", "openai"))).text("id");
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", apiTokenId));
        Map<String, Object> call = Map.of("model", "gpt-4o-mini",
                "messages", List.of(Map.of("role", "user", "content", "hi")));
        String llm = "/v1/projects/" + project + "/llm/openai/v1/chat/completions";

        Http.Response before = http.post(llm, apiToken, call);
        assertThat(problem(before, 404)).isEqualTo("inference_not_available");
        assertThat(before.body().path("detail").asText()).contains("key");

        // tokens are refused, whatever their role: only a person signed in as org admin
        assertThat(problem(http.put("/v1/orgs/" + org + "/inference/keys/openai", owner, Map.of("key", ORG_KEY)),
                403)).isEqualTo("forbidden");
        assertThat(problem(http.put("/v1/orgs/" + org + "/inference/keys/openai", apiToken, Map.of("key", ORG_KEY)),
                403)).isEqualTo("forbidden");
        Http.Response set = http.put("/v1/orgs/" + org + "/inference/keys/openai", admin, Map.of("key", ORG_KEY));
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(set.raw()).doesNotContain(ORG_KEY);
        JsonNode listed = http.get("/v1/orgs/" + org + "/inference/keys", admin).body();
        assertThat(listed.path("items").get(0).path("source").asText()).isEqualTo("openai");
        assertThat(listed.toString()).doesNotContain(ORG_KEY);
        JsonNode view = http.get("/v1/orgs/" + org + "/inference/providers", owner).body();
        assertThat(view.path("defaultProvider").asText()).isEqualTo("openai");

        Http.Response after = http.post(llm, apiToken, call);
        assertThat(after.status()).as(after.raw()).isEqualTo(200);
        assertThat(upstream.received.get(0).header("authorization")).isEqualTo("Bearer " + ORG_KEY);
        String trail = http.get("/v1/orgs/" + org + "/audit-trail", owner).raw();
        assertThat(trail).contains("inference-key").doesNotContain(ORG_KEY);

        assertThat(problem(http.put("/v1/orgs/" + org + "/inference/keys/anthropic", admin, Map.of("key", "k")),
                404)).isEqualTo("not_found");
        assertThat(problem(http.put("/v1/orgs/" + org + "/inference/keys/openai", admin,
                Map.of("key", "has space")), 400)).isEqualTo("validation_failed");
        assertThat(http.delete("/v1/orgs/" + org + "/inference/keys/openai", admin).status()).isEqualTo(204);
        assertThat(problem(http.post(llm, apiToken, call), 404)).isEqualTo("inference_not_available");
    }
}
