package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each hand-written value set (src/test/resources/values) rendered by Helm, and what each value controls. */
class ChartValueSetsTest {

    @Test
    void externalProviderSignInWithHubValues() {
        RenderedChart chart = RenderedChart.renderValuesFile("external-oidc");
        JsonNode config = chart.platformConfig();
        assertThat(config.at("/oidc/use-external-provider").asBoolean()).isTrue();
        assertThat(config.at("/oidc/issuer").asText()).isEqualTo("https://login.example.com/realms/acme");
        assertThat(config.at("/oidc/audience").asText()).isEqualTo("stockade");
        assertThat(config.at("/oidc/client-id").asText()).isEqualTo("stockade-cli");
        assertThat(config.at("/oidc/direct-access-role").asText()).isEqualTo("agents-admin");
        assertThat(config.at("/oidc/direct-access-report-only").asBoolean()).isTrue();
        assertThat(config.at("/config/public-url").asText()).isEqualTo("https://stockade.example.com");
        assertThat(config.at("/hub/url").asText()).isEqualTo("https://hub.example.com");
        assertThat(config.at("/hub/fleet-id").asText()).isEqualTo("fleet-42");
        assertThat(config.at("/hub/access-token-secret/name").asText()).isEqualTo("stockade-hub-token");
        // the fleet access token is mounted where the platform reads <dataDir>/secrets/<name>/accessToken
        String volume = chart.platformMounts().get("/data/secrets/stockade-hub-token");
        assertThat(volume).isNotNull();
        assertThat(chart.platformVolume(volume).at("/secret/secretName").asText()).isEqualTo("stockade-hub-token");
        // the API's Ingress serves the host of config.publicUrl
        JsonNode ingress = chart.one("Ingress", RenderedChart.FULLNAME);
        assertThat(ingress.at("/spec/rules/0/host").asText()).isEqualTo("stockade.example.com");
        assertThat(ingress.at("/spec/ingressClassName").asText()).isEqualTo("nginx");
        assertThat(ingress.at("/spec/tls/0/secretName").asText()).isEqualTo("stockade-tls");
        assertThat(ingress.at("/spec/rules/0/http/paths/0/backend/service/name").asText())
                .isEqualTo(RenderedChart.FULLNAME);
    }

    @Test
    void existingSetupSecretReplacesTheGeneratedOne() {
        RenderedChart chart = RenderedChart.renderValuesFile("existing-setup-secret");
        assertThat(chart.names()).doesNotContain("Secret/acme-hub-setup");
        assertThat(chart.platformConfig().at("/hub/setup/existing-secret").asText()).isEqualTo("my-setup");
        assertThat(chart.platformConfig().at("/hub/setup/key").asText()).isEqualTo("code");
        String volume = chart.platformMounts().get("/data/secrets/my-setup");
        assertThat(chart.platformVolume(volume).at("/secret/secretName").asText()).isEqualTo("my-setup");
    }

    @Test
    void anInstalledSetupCodeAndKeyAreKeptOnUpgrade() {
        String code = Base64.getEncoder().encodeToString("kept-setup-code-0123456789".getBytes(StandardCharsets.UTF_8));
        StandInApiServer.putSecret("upgraded", "acme-hub-setup", Map.of("setupCode", code));
        StandInApiServer.putSecret("upgraded", "acme-stockade-kek", Map.of("kek.json", "e30="));
        RenderedChart chart = RenderedChart.renderIn("upgraded", Map.of());
        assertThat(chart.one("Secret", "acme-hub-setup").at("/data/setupCode").asText()).isEqualTo(code);
        assertThat(chart.one("Secret", "acme-stockade-kek").at("/data/kek.json").asText()).isEqualTo("e30=");
    }

    @Test
    void productionRunsReplicasOnExternalPostgres() {
        RenderedChart chart = RenderedChart.renderValuesFile("production");
        JsonNode deployment = chart.one("Deployment", RenderedChart.FULLNAME);
        assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(deployment.at("/spec/strategy/type").asText()).isEqualTo("RollingUpdate");
        assertThat(chart.names()).doesNotContain("PersistentVolumeClaim/acme-stockade-data");
        assertThat(chart.platformVolume("data").has("emptyDir")).isTrue();
        assertThat(chart.platformArgs()).contains("--database-url=$(STOCKADE_DATABASE_URL)",
                "--database-user=$(STOCKADE_DATABASE_USER)", "--database-password-file=/etc/stockade/database/password");
        Map<String, JsonNode> env = env(chart.platformContainer());
        assertThat(env.get("STOCKADE_DATABASE_URL").at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("stockade-db");
        assertThat(env.get("STOCKADE_DATABASE_URL").at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("url");
        assertThat(env.get("STOCKADE_DATABASE_USER").at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("username");
        // the password reaches the platform as a file, never as an argument or a variable
        assertThat(chart.platformVolume("database").at("/secret/secretName").asText()).isEqualTo("stockade-db");
        assertThat(chart.platformVolume("database").at("/secret/items/0/key").asText()).isEqualTo("password");
        assertThat(chart.platformConfig().at("/datasources/default/maximum-pool-size").asInt()).isEqualTo(10);
        assertThat(chart.platformConfig().at("/config/max-header-bytes").asInt()).isEqualTo(65536);
        assertThat(chart.platformConfig().at("/config/owner-emails/0").asText()).isEqualTo("ops@example.com");
    }

    @Test
    void productionSeparateProxiesFollowThePlatform() {
        RenderedChart chart = RenderedChart.renderValuesFile("production");
        JsonNode proxy = chart.one("Deployment", "acme-stockade-proxy");
        assertThat(proxy.at("/spec/replicas").asInt()).isEqualTo(4);
        JsonNode container = proxy.at("/spec/template/spec/containers/0");
        assertThat(container.path("image").asText()).isEqualTo("stockade/proxy:0.1.0");
        assertThat(texts(container.path("args"))).containsExactly(
                "--platform=http://acme-stockade.stockade.svc:8080",
                "--platform-token-file=/etc/stockade/proxy-token/token", "--bind=0.0.0.0", "--port=3128",
                "--data-dir=/data", "--max-header-bytes=65536");
        assertThat(proxy.at("/spec/template/spec/volumes").findValuesAsText("secretName"))
                .containsExactly("stockade-proxy-token");
        assertThat(chart.one("Service", "acme-stockade-proxy").at("/spec/ports/0/port").asInt()).isEqualTo(3128);
        assertThat(chart.one("PodDisruptionBudget", "acme-stockade-proxy").at("/spec/selector/matchLabels")
                .path("app.kubernetes.io/component").asText()).isEqualTo("proxy");
    }

    @Test
    void productionClientApiSubchartFrontsThePlatformPods() {
        RenderedChart chart = RenderedChart.renderValuesFile("production");
        JsonNode service = chart.one("Service", "acme-bff");
        assertThat(service.at("/spec/selector").path("app.kubernetes.io/component").asText()).isEqualTo("platform");
        assertThat(service.at("/spec/selector").path("app.kubernetes.io/instance").asText()).isEqualTo("acme");
        assertThat(service.at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
        assertThat(chart.one("Ingress", "acme-bff").at("/spec/rules/0/host").asText()).isEqualTo("agents.example.com");
    }

    @Test
    void productionExposedPortsInferenceAndOAuthApplications() {
        RenderedChart chart = RenderedChart.renderValuesFile("production");
        JsonNode ingress = chart.one("Ingress", "acme-stockade-sandboxes");
        assertThat(ingress.at("/spec/rules/0/host").asText()).isEqualTo("*.sandboxes.example.com");
        assertThat(ingress.at("/spec/tls/0/hosts/0").asText()).isEqualTo("*.sandboxes.example.com");
        assertThat(ingress.at("/spec/tls/0/secretName").asText()).isEqualTo("sandboxes-wildcard");
        JsonNode config = chart.platformConfig();
        assertThat(config.at("/sandbox-ingress/host").asText()).isEqualTo("sandboxes.example.com");
        assertThat(config.at("/sandbox-ingress/cors-origins").asText())
                .isEqualTo("https://app.example.com,https://admin.example.com");
        assertThat(config.at("/sandbox/k8s/cpu").asText()).isEqualTo("2");
        assertThat(config.at("/sandbox/k8s/memory").asText()).isEqualTo("4Gi");
        assertThat(chart.one("Role", "acme-stockade-provisioner").at("/metadata/namespace").asText()).isEqualTo("agents");
        assertThat(config.at("/inference/deployment-key-fallback").asBoolean()).isFalse();
        assertThat(config.at("/inference/litellm/base-url").asText()).isEqualTo("https://litellm.internal.example.com");
        assertThat(config.at("/inference/litellm/forward-tags").asBoolean()).isTrue();
        assertThat(config.at("/inference/litellm/api-key-secret").asText()).isEqualTo("litellm-key");
        assertThat(config.at("/inference/bedrock/ambient-credentials").asBoolean()).isTrue();
        // one key secret named by two backends is mounted once
        assertThat(chart.platformMounts().keySet()).filteredOn(p -> p.startsWith("/data/secrets/"))
                .containsExactly("/data/secrets/acme-hub-setup", "/data/secrets/litellm-key");
        assertThat(chart.platformArgs()).contains("--config=/etc/stockade/platform.yaml",
                "--config=/etc/stockade/oauth-applications/applications.yaml");
        assertThat(chart.platformVolume("oauth-applications").at("/secret/secretName").asText()).isEqualTo("oauth-apps");
    }

    private static Map<String, JsonNode> env(JsonNode container) {
        Map<String, JsonNode> out = new HashMap<>();
        container.path("env").forEach(e -> out.put(e.path("name").asText(), e));
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
