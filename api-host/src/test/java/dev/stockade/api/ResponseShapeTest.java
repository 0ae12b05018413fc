package dev.stockade.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.stockade.api.connectors.ConnectorViews;
import dev.stockade.api.governance.GovernanceViews;
import dev.stockade.api.sandbox.SandboxConfig;
import dev.stockade.api.sandbox.SandboxViews;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.tenancy.Views;
import dev.stockade.policy.compiler.BlockedDomain;
import dev.stockade.policy.compiler.NarrowedDomain;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.Provider;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Answers are records, and the JSON they make through the platform's own mapper keeps the wire the API always had:
 * a key that does not apply is left out, one that applies without a value is {@code null}.
 */
@MicronautTest(transactional = false)
class ResponseShapeTest extends PlatformTest {
    private static final Instant AT = Instant.parse("2026-01-02T03:04:05.123456Z");
    private static final UUID ID = UUID.fromString("00000000-0000-0000-0000-000000000001");

    @Inject
    ObjectMapper json;

    @Test
    void aSandboxLeavesOutDetailStoppedByAndImageButWritesItsNullTimers() {
        JsonNode s = json.valueToTree(new SandboxViews.SandboxView(ID, ID, ID, "box", "box", "running", null, null, 1,
                "1", "1Gi", null, List.of(), List.of(), NullNode.getInstance(),
                List.of(new SandboxConfig.Port(8080, "private")), null, null, false, AT, AT, AT));
        assertThat(names(s)).containsExactly("id", "orgId", "projectId", "name", "slug", "state", "activeRevision",
                "cpu", "memory", "policies", "credentials", "policy", "ports", "autoStop", "autoDelete", "autoStart",
                "lastActivityAt", "createdAt", "updatedAt");
        assertThat(s.get("policy").isNull()).isTrue();
        assertThat(s.get("autoStop").isNull()).isTrue();
        assertThat(s.get("createdAt").asText()).isEqualTo("2026-01-02T03:04:05.123456Z");
        assertThat(s.get("ports").toString()).isEqualTo("[{\"port\":8080,\"visibility\":\"private\"}]");
    }

    @Test
    void anHttpConnectorShowsANullDocumentUrlAndAnMcpOneNone() {
        JsonNode inline = json.valueToTree(connector("http", Optional.empty()));
        assertThat(inline.has("documentUrl")).isTrue();
        assertThat(inline.get("documentUrl").isNull()).isTrue();
        assertThat(inline.get("lastError").isNull()).isTrue();
        assertThat(json.valueToTree(connector("http", Optional.of("https://api.example/doc.yaml")))
                .path("documentUrl").asText()).isEqualTo("https://api.example/doc.yaml");
        assertThat(json.valueToTree(connector("mcp", null)).has("documentUrl")).isFalse();
    }

    @Test
    void aSyncNamesOnlyWhatHappened() {
        assertThat(names(json.valueToTree(new ConnectorViews.SyncResult("error", "refused", null, null, null))))
                .containsExactly("status", "error");
        assertThat(names(json.valueToTree(new ConnectorViews.SyncResult("ready", null, true, null, ID))))
                .containsExactly("status", "changed", "pendingSpecId");
    }

    @Test
    void aDiscoveryWritesANullResourceWhenTheMetadataNamesNone() {
        JsonNode found = json.valueToTree(new ConnectorViews.AuthorizationDiscovery("https://mcp.example/", true,
                "https://mcp.example/.well-known/oauth-protected-resource", Optional.empty(), List.of(), List.of(),
                null));
        assertThat(names(found)).containsExactly("url", "requiresAuthorization", "resourceMetadataUrl", "resource",
                "authorizationServers", "applications");
        assertThat(found.get("resource").isNull()).isTrue();
        assertThat(names(json.valueToTree(new ConnectorViews.AuthorizationDiscovery("https://mcp.example/", null,
                null, null, null, null, "unreachable")))).containsExactly("url", "error");
    }

    @Test
    void aBindingNamesItsOneSubjectAndAnOrgPolicyNoProject() {
        JsonNode user = json.valueToTree(new GovernanceViews.BindingView(ID, "org", ID, null, ID, "p", ID, null, AT));
        assertThat(names(user)).containsExactly("id", "scope", "orgId", "policyId", "policyName", "userId",
                "createdAt");
        JsonNode policy = json.valueToTree(new GovernanceViews.PolicyView(ID, "org", ID, null, "p",
                json.createObjectNode(), AT, AT));
        assertThat(names(policy)).doesNotContain("projectId");
    }

    @Test
    void aProjectWithoutAKeyShowsAnEmptyObject() {
        JsonNode none = json.valueToTree(new Views.PublicKey(new Views.Jwk(null, null, null, null, null, null, null),
                "ES256"));
        assertThat(none.toString()).isEqualTo("{\"key\":{},\"algorithm\":\"ES256\"}");
    }

    @Test
    void theCoresRecordsInAnEffectivePolicyWriteAsAPlainMapperWritesThem() {
        // before answers were records, these were turned into trees by a plain ObjectMapper: the wire stays so
        List<Object> values = List.of(
                new ConnectorGrant("pets", List.of("listPets"), null),
                new ManagedInference(true, Provider.OPENAI, List.of(Provider.OPENAI, Provider.BEDROCK),
                        java.util.Map.of("OPENAI_BASE_URL", "https://inference.example")),
                new ManagedInference(null, null, null, null),
                new NarrowedDomain("*.example.com", "team", 0, List.of("ceiling-clipped"), "narrowed"),
                new BlockedDomain("evil.test", "team", 1, "not-in-ceiling", "org", 2, "blocked"));
        ObjectMapper plain = new ObjectMapper();
        for (Object v : values) {
            assertThat(json.valueToTree(v).toString()).as(v.toString()).isEqualTo(plain.valueToTree(v).toString());
        }
    }

    private static ConnectorViews.ConnectorView connector(String kind, Optional<String> documentUrl) {
        return new ConnectorViews.ConnectorView(ID, ID, "pets", kind, "https://api.example", documentUrl, "ready",
                null, ID, List.of(new ConnectorViews.ToolSummary("listPets", "List pets")), "user:1", AT, null);
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
