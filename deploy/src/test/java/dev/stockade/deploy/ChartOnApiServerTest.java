package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.testing.KubeApiServer;
import dev.stockade.testing.ThrowawayPki;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chart's rendered manifests created on a real kube-apiserver (v1.20.2, test-support's {@link KubeApiServer}), one
 * namespace per value set: every object passes the real validation and admission, and reads back with every field the
 * chart wrote (a field the server does not know would be dropped without an error, so it is compared, not assumed).
 * v1.20 is the oldest release the chart targets, and the newest that builds here.
 */
class ChartOnApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static KubeApiServer api;
    static KubernetesClient client;

    @BeforeAll
    static void startControlPlane() {
        api = KubeApiServer.start();
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(api.url())
                .withCaCertData(ThrowawayPki.base64(api.pki().caCertificate())).withOauthToken(api.token()).build();
        client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    @AfterAll
    static void stopControlPlane() {
        if (client != null) {
            client.close();
        }
        if (api != null) {
            api.close();
        }
    }

    /** Renders value set {@code set} ({@code defaults}: none) into a namespace of its own and creates what it needs. */
    private static RenderedChart rendered(String set, String namespace, Map<String, Object> values) {
        Map<String, Object> all = new java.util.HashMap<>(values);
        all.put("sandbox.k8s.namespace", namespace + "-sandboxes"); // each set's Role apart from the others'
        RenderedChart chart = RenderedChart.renderIn(namespace, set.equals("defaults") ? null : set, all);
        TreeSet<String> namespaces = new TreeSet<>(List.of(namespace, namespace + "-sandboxes"));
        for (String ns : namespaces) {
            if (client.namespaces().withName(ns).get() == null) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata()
                        .build()).create();
            }
        }
        return chart;
    }

    @ParameterizedTest
    @ValueSource(strings = {"defaults", "production", "external-oidc"})
    void everyObjectIsAcceptedAndStoredWithEveryFieldTheChartWrote(String set) throws Exception {
        String namespace = "rel-" + set;
        // policy/v1 PodDisruptionBudgets came with 1.21: off here, see the test below
        RenderedChart chart = rendered(set, namespace, Map.of("podDisruptionBudget.enabled", "false"));
        List<String> refused = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (JsonNode doc : chart.documents()) {
            String ns = doc.at("/metadata/namespace").asText(namespace);
            String id = doc.path("kind").asText() + "/" + doc.at("/metadata/name").asText();
            try {
                HasMetadata created = client.resource(JSON.writeValueAsString(doc)).inNamespace(ns).create();
                HasMetadata stored = client.resource(created).inNamespace(ns).get();
                assertThat(stored.getMetadata().getUid()).as(id).isNotBlank();
                differences(id, doc, JSON.readTree(Serialization.asJson(stored)), dropped);
            } catch (KubernetesClientException e) {
                refused.add(id + ": " + e.getCode() + " " + (e.getStatus() == null ? e.getMessage()
                        : e.getStatus().getMessage()));
            }
        }
        assertThat(chart.documents()).as("the value set renders objects").isNotEmpty();
        assertThat(refused).as("objects the API server refused").isEmpty();
        assertThat(dropped).as("fields the API server did not keep as the chart wrote them").isEmpty();
        // what only the server does: a cluster IP from its service range for each Service
        for (JsonNode service : chart.all("Service")) {
            String ip = client.services().inNamespace(namespace).withName(service.at("/metadata/name").asText()).get()
                    .getSpec().getClusterIP();
            assertThat(ip).as(service.at("/metadata/name").asText()).startsWith("10.0.0.");
        }
    }

    @Test
    void onTheOldestTargetThePodDisruptionBudgetsMustBeSwitchedOff() throws JsonProcessingException {
        RenderedChart chart = rendered("production", "rel-pdb", Map.of());
        List<JsonNode> budgets = chart.all("PodDisruptionBudget");
        assertThat(budgets).hasSize(2).allSatisfy(b -> assertThat(b.path("apiVersion").asText()).isEqualTo("policy/v1"));
        String budget = JSON.writeValueAsString(budgets.get(0));
        assertThatThrownBy(() -> client.resource(budget).inNamespace("rel-pdb").create())
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(404));
    }

    /**
     * Adds to {@code out} each path where {@code stored} lacks or changes what {@code rendered} holds. A Secret's
     * {@code stringData} is compared with the {@code data} the server stores it as; an empty map, list or null the
     * chart writes may be left out.
     */
    private static void differences(String at, JsonNode rendered, JsonNode stored, List<String> out) {
        if (rendered.isObject()) {
            rendered.fields().forEachRemaining(f -> {
                JsonNode value = f.getValue();
                if (f.getKey().equals("stringData") && at.startsWith("Secret/")) {
                    value.fields().forEachRemaining(s -> {
                        String data = stored.path("data").path(s.getKey()).asText(null);
                        String decoded = data == null ? null
                                : new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8);
                        if (!s.getValue().asText().equals(decoded)) {
                            out.add(at + "/stringData/" + s.getKey());
                        }
                    });
                } else if (!stored.has(f.getKey())) {
                    if (!(value.isNull() || value.isContainerNode() && value.isEmpty())) {
                        out.add(at + "/" + f.getKey() + " (missing)");
                    }
                } else {
                    differences(at + "/" + f.getKey(), value, stored.get(f.getKey()), out);
                }
            });
        } else if (rendered.isArray()) {
            if (!stored.isArray() || stored.size() != rendered.size()) {
                out.add(at + " (" + rendered.size() + " items rendered, " + stored.size() + " stored)");
                return;
            }
            for (int i = 0; i < rendered.size(); i++) {
                differences(at + "/" + i, rendered.get(i), stored.get(i), out);
            }
        } else if (!rendered.isNull() && !rendered.asText().equals(stored.asText())) {
            out.add(at + " (rendered " + rendered.asText() + ", stored " + stored.asText() + ")");
        }
    }
}
