package dev.stockade.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The chart as real Helm renders it (helm-java: Helm's own Go library, no binary), parsed into one tree per
 * document, so tests ask for an object by kind and name as the API server would store it.
 */
record RenderedChart(List<JsonNode> documents) {
    static final Path CHART = Path.of("helm", "stockade");
    static final String RELEASE = "acme";
    static final String NAMESPACE = "stockade";
    /** The release's full name: the release name plus "-stockade". */
    static final String FULLNAME = "acme-stockade";
    private static final ObjectMapper YAML = new YAMLMapper();

    /** Renders with the chart's defaults changed by {@code values} (Helm's --set syntax). */
    static RenderedChart render(Map<String, Object> values) {
        return render(command -> {
            values.forEach(command::set);
            return command;
        });
    }

    /** Renders with the hand-written value set {@code src/test/resources/values/<name>.yaml}. */
    static RenderedChart renderValuesFile(String name) {
        return render(command -> command.withValuesFile(Path.of("src", "test", "resources", "values", name + ".yaml")));
    }

    /** Renders into {@code namespace}, where the stand-in API server may hold secrets of an earlier install. */
    static RenderedChart renderIn(String namespace, Map<String, Object> values) {
        return render(namespace, command -> {
            values.forEach(command::set);
            return command;
        });
    }

    /**
     * Renders into {@code namespace} with the value set {@code src/test/resources/values/<name>.yaml} ({@code null}:
     * the chart's defaults) and {@code values} (Helm's --set syntax) on top.
     */
    static RenderedChart renderIn(String namespace, String name, Map<String, Object> values) {
        return render(namespace, command -> {
            if (name != null) {
                command.withValuesFile(Path.of("src", "test", "resources", "values", name + ".yaml"));
            }
            values.forEach(command::set);
            return command;
        });
    }

    private static RenderedChart render(UnaryOperator<TemplateCommand> values) {
        return render(NAMESPACE, values);
    }

    private static RenderedChart render(String namespace, UnaryOperator<TemplateCommand> values) {
        StandInApiServer.ensureStarted();
        TemplateCommand command = new Helm(CHART).template().withName(RELEASE).withNamespace(namespace);
        return parse(values.apply(command).call());
    }

    static RenderedChart parse(String manifests) {
        List<JsonNode> out = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(manifests)) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && doc.isObject() && doc.has("kind")) {
                    out.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Helm rendered YAML that does not parse", e);
        }
        return new RenderedChart(List.copyOf(out));
    }

    /** The one object of {@code kind} named {@code name}; fails naming what was rendered instead. */
    JsonNode one(String kind, String name) {
        return documents.stream()
                .filter(d -> kind.equals(d.path("kind").asText()) && name.equals(d.path("metadata").path("name").asText()))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException("no " + kind + " " + name + " among " + names()));
    }

    List<JsonNode> all(String kind) {
        return documents.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    List<String> names() {
        return documents.stream().map(d -> d.path("kind").asText() + "/" + d.path("metadata").path("name").asText())
                .toList();
    }

    /** The platform's configuration file as the platform reads it (the ConfigMap's platform.yaml, parsed). */
    JsonNode platformConfig() {
        try {
            return YAML.readTree(one("ConfigMap", FULLNAME + "-config").path("data").path("platform.yaml").asText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The platform Deployment's only container. */
    JsonNode platformContainer() {
        JsonNode containers = one("Deployment", FULLNAME).path("spec").path("template").path("spec").path("containers");
        if (containers.size() != 1) {
            throw new IllegalStateException("the platform pod has " + containers.size() + " containers");
        }
        return containers.get(0);
    }

    /** The platform container's arguments. */
    List<String> platformArgs() {
        List<String> args = new ArrayList<>();
        platformContainer().path("args").forEach(a -> args.add(a.asText()));
        return args;
    }

    /** mountPath to volume name of the platform container. */
    Map<String, String> platformMounts() {
        Map<String, String> out = new TreeMap<>();
        platformContainer().path("volumeMounts").forEach(m -> out.put(m.path("mountPath").asText(), m.path("name").asText()));
        return out;
    }

    /** The platform pod's volume named {@code name}. */
    ObjectNode platformVolume(String name) {
        for (JsonNode v : one("Deployment", FULLNAME).path("spec").path("template").path("spec").path("volumes")) {
            if (name.equals(v.path("name").asText())) {
                return (ObjectNode) v;
            }
        }
        throw new NoSuchElementException("no volume " + name);
    }
}
