package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The chart with its defaults: one platform replica on the embedded database, sandboxes as pods, setup screen on. */
class ChartDefaultsTest {
    private static RenderedChart chart;

    @BeforeAll
    static void render() {
        chart = RenderedChart.render(Map.of());
    }

    @Test
    void lintsCleanInStrictMode() {
        LintResult lint = new Helm(RenderedChart.CHART).lint().strict().call();
        assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
        assertThat(lint.getMessages()).noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
    }

    @Test
    void chartVersionIsTheProjectsReleaseVersion() throws Exception {
        JsonNode meta = new ObjectMapper(new YAMLFactory())
                .readTree(RenderedChart.CHART.resolve("Chart.yaml").toFile());
        String project = System.getProperty("stockade.version", "");
        assertThat(project).as("surefire passes the project's version").isNotEmpty();
        assertThat(meta.path("version").asText()).isEqualTo(project.replace("-SNAPSHOT", ""));
        assertThat(meta.path("appVersion").asText()).isEqualTo(meta.path("version").asText());
    }

    @Test
    void imagesAreTaggedWithTheAppVersion() {
        assertThat(chart.platformContainer().path("image").asText()).isEqualTo("stockade/platform:0.1.0");
        assertThat(chart.platformConfig().at("/sandbox/k8s/image").asText()).isEqualTo("stockade/runtime:0.1.0");
    }

    @Test
    void probesUseThePlatformsHealthEndpoint() {
        JsonNode c = chart.platformContainer();
        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            assertThat(c.path(probe).path("httpGet").path("path").asText()).as(probe).isEqualTo("/health");
            assertThat(c.path(probe).path("httpGet").path("port").asText()).as(probe).isEqualTo("http");
        }
        // migrations run before /health answers: the startup probe waits 120 x 5 s
        assertThat(c.at("/startupProbe/failureThreshold").asInt() * c.at("/startupProbe/periodSeconds").asInt())
                .isEqualTo(600);
        assertThat(c.at("/ports/0/containerPort").asInt()).isEqualTo(8080);
    }

    @Test
    void runsAsNonRootOnAReadOnlyRootFilesystem() {
        JsonNode pod = chart.one("Deployment", RenderedChart.FULLNAME).at("/spec/template/spec");
        assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.at("/securityContext/runAsUser").asInt()).isEqualTo(10001);
        JsonNode sc = chart.platformContainer().path("securityContext");
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(sc.path("allowPrivilegeEscalation").asBoolean()).isFalse();
        assertThat(sc.at("/capabilities/drop/0").asText()).isEqualTo("ALL");
        // what the platform writes: its data directory and temporary files
        assertThat(chart.platformMounts()).containsEntry("/data", "data").containsEntry("/tmp", "tmp");
    }

    @Test
    void embeddedDatabaseKeepsItsVolumeAndRecreatesThePod() {
        JsonNode deployment = chart.one("Deployment", RenderedChart.FULLNAME);
        assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(1);
        assertThat(deployment.at("/spec/strategy/type").asText()).isEqualTo("Recreate");
        assertThat(chart.platformVolume("data").at("/persistentVolumeClaim/claimName").asText())
                .isEqualTo("acme-stockade-data");
        JsonNode claim = chart.one("PersistentVolumeClaim", "acme-stockade-data");
        assertThat(claim.at("/spec/resources/requests/storage").asText()).isEqualTo("10Gi");
        assertThat(claim.at("/metadata/annotations/helm.sh~1resource-policy").asText()).isEqualTo("keep");
        assertThat(chart.platformArgs()).noneMatch(a -> a.startsWith("--database-url"));
    }

    @Test
    void passesTheConfigurationFileAndListensOnAllAddresses() {
        assertThat(chart.platformArgs()).containsExactly("--data-dir=/data", "--bind=0.0.0.0", "--port=8080",
                "--config=/etc/stockade/platform.yaml");
        JsonNode config = chart.platformConfig();
        assertThat(config.at("/config/max-header-bytes").asInt()).isEqualTo(32768);
        assertThat(config.at("/config/public-url").isMissingNode()).as("empty values are left to the platform").isTrue();
        assertThat(config.at("/sandbox/provisioner").asText()).isEqualTo("kubernetes");
        assertThat(config.at("/sandbox/k8s/cpu").asText()).isEqualTo("4");
        assertThat(config.at("/sandbox/k8s/memory").asText()).isEqualTo("8Gi");
        assertThat(config.at("/sandbox/k8s/namespace").asText()).isEqualTo("stockade-sandboxes");
        assertThat(config.at("/sandbox/k8s/platform-url").asText()).isEqualTo("http://acme-stockade.stockade.svc:8080");
        assertThat(config.at("/inference/deployment-key-fallback").asBoolean()).isTrue();
        assertThat(config.at("/inference/bedrock-mantle/enabled").asBoolean()).isFalse();
        assertThat(config.at("/datasources/default/maximum-pool-size").asInt()).isEqualTo(16);
        assertThat(config.at("/oidc/use-external-provider").asBoolean()).isFalse();
    }

    @Test
    void generatesTheSetupCodeSecretNamedAfterTheRelease() {
        JsonNode secret = chart.one("Secret", "acme-hub-setup");
        String code = new String(Base64.getDecoder().decode(secret.at("/data/setupCode").asText()),
                StandardCharsets.UTF_8);
        assertThat(code).hasSize(32).matches("[A-Za-z0-9]+"); // the platform wants at least 16
        assertThat(secret.at("/metadata/annotations/helm.sh~1resource-policy").asText()).isEqualTo("keep");
        // the platform reads it as a supplied secret, from where a secret named so is mounted
        assertThat(chart.platformConfig().at("/hub/setup/existing-secret").asText()).isEqualTo("acme-hub-setup");
        assertThat(chart.platformMounts()).containsKey("/data/secrets/acme-hub-setup");
        String volume = chart.platformMounts().get("/data/secrets/acme-hub-setup");
        assertThat(chart.platformVolume(volume).at("/secret/secretName").asText()).isEqualTo("acme-hub-setup");
    }

    @Test
    @SuppressWarnings("deprecation") // parseKeyset is the call the platform reads kek.json with (FileKeyEncryptionKey)
    void keyEncryptionKeyIsATinkKeysetEveryReplicaShares() throws Exception {
        JsonNode secret = chart.one("Secret", "acme-stockade-kek");
        String json = new String(Base64.getDecoder().decode(secret.at("/data/kek.json").asText()), StandardCharsets.UTF_8);
        AeadConfig.register();
        KeysetHandle handle = TinkJsonProtoKeysetFormat.parseKeyset(json, InsecureSecretKeyAccess.get());
        Aead aead = handle.getPrimitive(RegistryConfiguration.get(), Aead.class);
        byte[] sealed = aead.encrypt("secret".getBytes(StandardCharsets.UTF_8), "ctx".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(aead.decrypt(sealed, "ctx".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("secret");
        assertThat(handle.size()).isEqualTo(1);
        assertThat(chart.platformMounts()).containsEntry("/data/keys", "kek");
        // two renders without a cluster make two different keys: only `lookup` (a live install) keeps one
        String other = RenderedChart.render(Map.of()).one("Secret", "acme-stockade-kek").at("/data/kek.json").asText();
        assertThat(other).isNotEqualTo(secret.at("/data/kek.json").asText());
    }

    @Test
    void provisionerRoleGrantsExactlyWhatTheProvisionerCalls() {
        JsonNode role = chart.one("Role", "acme-stockade-provisioner");
        assertThat(role.at("/metadata/namespace").asText()).isEqualTo("stockade-sandboxes");
        List<String> rules = new ArrayList<>();
        role.path("rules").forEach(r -> rules.add(r.at("/apiGroups/0").asText() + "/" + r.at("/resources/0").asText()
                + ":" + String.join(",", texts(r.path("verbs")))));
        assertThat(rules).containsExactly(
                "/pods:get,list,watch,create,delete",
                "/pods/exec:create,get",
                "/secrets:get,create,update,delete",
                "/persistentvolumeclaims:get,create,delete",
                "networking.k8s.io/networkpolicies:get,create,update,delete");
        JsonNode binding = chart.one("RoleBinding", "acme-stockade-provisioner");
        assertThat(binding.at("/subjects/0/name").asText()).isEqualTo("acme-stockade");
        assertThat(binding.at("/subjects/0/namespace").asText()).isEqualTo("stockade");
        assertThat(chart.all("ClusterRole")).isEmpty();
        assertThat(chart.one("Deployment", RenderedChart.FULLNAME).at("/spec/template/spec/automountServiceAccountToken")
                .asBoolean()).isTrue();
    }

    @Test
    void disruptionBudgetSelectsThePlatformPods() {
        JsonNode pdb = chart.one("PodDisruptionBudget", RenderedChart.FULLNAME);
        assertThat(pdb.at("/spec/maxUnavailable").asInt()).isEqualTo(1);
        JsonNode podLabels = chart.one("Deployment", RenderedChart.FULLNAME).at("/spec/template/metadata/labels");
        pdb.at("/spec/selector/matchLabels").properties()
                .forEach(e -> assertThat(podLabels.path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
        assertThat(chart.one("Service", RenderedChart.FULLNAME).at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
    }

    @Test
    void optionalPartsAreOffByDefault() {
        assertThat(chart.names()).noneMatch(n -> n.startsWith("Ingress/") || n.contains("-proxy") || n.contains("bff"));
    }

    @Test
    void configChangeRollsThePods() {
        String before = chart.one("Deployment", RenderedChart.FULLNAME).at("/spec/template/metadata/annotations/checksum~1config").asText();
        String after = RenderedChart.render(Map.of("config.maxHeaderBytes", 65536)).one("Deployment", RenderedChart.FULLNAME)
                .at("/spec/template/metadata/annotations/checksum~1config").asText();
        assertThat(before).hasSize(64).isNotEqualTo(after);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
