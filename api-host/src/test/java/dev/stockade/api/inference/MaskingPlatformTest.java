package dev.stockade.api.inference;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The world the masking tests share: a platform serving Azure (Anthropic format) and OpenAI from an echoing provider
 * double, and per test a fresh organization whose agent token is bound to one policy with managed inference and the
 * {@code piiMasking} block under test.
 */
abstract class MaskingPlatformTest extends PlatformTest {
    protected final ProviderDouble upstream = ProviderDouble.start();
    protected String org;
    protected String project;
    protected String token;

    JsonNode awaitUsage(int calls) {
        return InferenceFixtures.awaitUsage(http, ownerToken(), org, calls);
    }

    List<JsonNode> awaitAudit(String outcome) {
        return InferenceFixtures.awaitAudit(http, ownerToken(), org, outcome);
    }

    static String usd(long micros) {
        return InferenceFixtures.usd(micros);
    }

    @Override
    protected Map<String, String> extraProperties() {
        InferenceFixtures.writeSecret(dataDir, "azure", "azure-deployment-key-masking");
        InferenceFixtures.writeSecret(dataDir, "openai", "openai-deployment-key-masking");
        Map<String, String> p = new HashMap<>();
        p.put("inference.allow-loopback-unsafe", "true");
        p.put("inference.azure.enabled", "true");
        p.put("inference.azure.base-url", upstream.baseUrl());
        p.put("inference.azure.api-key-secret", "azure");
        p.put("inference.openai.enabled", "true");
        p.put("inference.openai.base-url", upstream.baseUrl());
        p.put("inference.openai.api-key-secret", "openai");
        return p;
    }

    @BeforeEach
    void resetDouble() {
        upstream.received.clear();
        upstream.echo = true;
        upstream.reply = ToolAnswers.Reply.TEXT;
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    /** A new organization whose agent token is bound to managed inference with {@code piiMasking}. */
    void grant(Map<String, Object> piiMasking) {
        String owner = ownerToken();
        org = createOrg(owner, "mask-" + System.nanoTime());
        project = createProject(owner, org, "agents");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "models",
                "managedInference", Map.of("enabled", true, "provider", "azure", "providers",
                        List.of("azure", "openai")), "piiMasking", piiMasking)).text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", t.text("id")));
        token = t.text("token");
    }

    String route(String backend) {
        return http.base() + "/v1/projects/" + project + "/llm/" + backend;
    }

    /** The official Anthropic SDK on the Azure Foundry route, with the agent's token. */
    AnthropicClient anthropic() {
        return AnthropicOkHttpClient.builder().baseUrl(route("azure/anthropic")).apiKey(token).maxRetries(0).build();
    }

    /** The official OpenAI SDK on the OpenAI route, with the agent's token. */
    OpenAIClient openai() {
        return OpenAIOkHttpClient.builder().baseUrl(route("openai")).apiKey(token).maxRetries(0).build();
    }

    /** A Chat Completions call with {@code text} as its one user message, through the plain HTTP client. */
    Http.Response postChat(String text) {
        return http.post("/v1/projects/" + project + "/llm/openai/v1/chat/completions", token,
                Map.of("model", "gpt-4o-mini", "messages", List.of(Map.of("role", "user", "content", text))));
    }
}
