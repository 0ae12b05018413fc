package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * values.yaml against the spec: every value the spec names is there with the default the spec gives (the tables of
 * spec/platform.md, copied by hand), and the chart lints clean with each hand-written value set, not only its
 * defaults (helm-java's lint takes no values, so each set is merged into a copy of the chart's values.yaml). Lint
 * checks the schema and the rendered YAML; in lint mode Helm turns a template's {@code fail} into an info line, so
 * the chart's own refusals are checked by rendering ({@link ChartRefusalsTest}).
 */
class ChartSpecValuesTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    /** The spec's named values and their defaults; null where the spec names a value without a default. */
    private static final Map<String, Object> SPEC = new LinkedHashMap<>();

    static {
        SPEC.put("/hub/url", null);
        SPEC.put("/hub/publicUrl", "");
        SPEC.put("/hub/fleetId", "");
        SPEC.put("/hub/accessTokenSecret/name", "");
        SPEC.put("/hub/accessTokenSecret/key", "accessToken");
        SPEC.put("/hub/setup/enabled", true);
        SPEC.put("/hub/setup/existingSecret", "");
        SPEC.put("/hub/setup/key", "setupCode");
        SPEC.put("/oidc/useExternalProvider", false);
        SPEC.put("/oidc/directAccessRole", null);
        SPEC.put("/oidc/directAccessReportOnly", null);
        SPEC.put("/config/publicUrl", null);
        SPEC.put("/config/maxHeaderBytes", 32768);
        SPEC.put("/config/ownerEmails", null);
        SPEC.put("/sandbox/k8s/cpu", null);
        SPEC.put("/sandbox/k8s/memory", null);
        SPEC.put("/sandbox/provisioner", null);
        SPEC.put("/sandboxIngress/host", null);
        SPEC.put("/sandboxIngress/corsOrigins", null);
        SPEC.put("/inference/deploymentKeyFallback", true);
        SPEC.put("/inference/litellm/baseUrl", null);
        SPEC.put("/inference/litellm/forwardTags", null);
        SPEC.put("/inference/openai/baseUrl", null);
        SPEC.put("/inference/bedrock/ambientCredentials", null);
        SPEC.put("/bff/enabled", null);
        SPEC.put("/oauthApplications/existingSecret", null);
    }

    @Test
    void valuesHoldEveryValueTheSpecNamesWithItsDefault() throws IOException {
        JsonNode values = YAML.readTree(RenderedChart.CHART.resolve("values.yaml").toFile());
        SPEC.forEach((pointer, expected) -> {
            JsonNode value = values.at(pointer);
            assertThat(value.isMissingNode()).as("values.yaml has %s", pointer).isFalse();
            if (expected != null) {
                assertThat(YAML.convertValue(value, Object.class)).as(pointer).isEqualTo(expected);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"external-oidc", "existing-setup-secret", "production"})
    void lintsCleanWithTheValueSet(String name, @TempDir Path copy) throws IOException {
        copyChart(RenderedChart.CHART, copy);
        ObjectNode values = (ObjectNode) YAML.readTree(copy.resolve("values.yaml").toFile());
        merge(values, YAML.readTree(Path.of("src", "test", "resources", "values", name + ".yaml").toFile()));
        YAML.writeValue(copy.resolve("values.yaml").toFile(), values);
        LintResult lint = new Helm(copy).lint().strict().call();
        assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
        assertThat(lint.getMessages()).noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
    }

    /** Helm's own merge of a values file over the defaults: maps merge key by key, anything else replaces. */
    private static void merge(ObjectNode into, JsonNode from) {
        from.properties().forEach(e -> {
            JsonNode existing = into.get(e.getKey());
            if (existing instanceof ObjectNode target && e.getValue().isObject()) {
                merge(target, e.getValue());
            } else {
                into.set(e.getKey(), e.getValue());
            }
        });
    }

    private static void copyChart(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            files.forEach(source -> {
                try {
                    Path target = to.resolve(from.relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(source, target);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
