package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.deploy.ImageArchive.ImageConfig;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The three image tars agree with the chart that runs them: the tag the chart pulls is in the tar, the entrypoint is
 * the host's main with no arguments of its own (the chart passes options only), the user is the chart's non-root
 * uid, the exposed ports are the pod's container ports. Read with skopeo, as a runtime would read them.
 */
class ImageConfigTest {
    private static RenderedChart defaults;
    private static RenderedChart production;

    @BeforeAll
    static void render() {
        defaults = RenderedChart.render(Map.of());
        production = RenderedChart.renderValuesFile("production");
    }

    @Test
    void platformImageRunsServeMainAsTheChartsUserOnItsPorts() throws Exception {
        JsonNode container = defaults.platformContainer();
        ImageConfig config = ImageArchive.of("api-host", container.path("image").asText()).config();

        assertRunsMain(config, "dev.stockade.api.ServeMain", "-XX:MaxRAMPercentage=60");
        assertThat(config.entrypoint()).as("the platform's collector, as for its proxy (docs/proxy.md)")
                .contains("-XX:+UseZGC");
        assertThat(config.user()).isEqualTo(chartUser(defaults.one("Deployment", RenderedChart.FULLNAME)));
        assertThat(config.exposedPorts()).isEqualTo(containerPorts(container));
        assertLabels(config, "stockade/platform");
        // Jib writes no HEALTHCHECK (docs/semantics.md, "Container images"): the chart's probes on /health are it
        assertThat(config.healthcheck()).isFalse();
        assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health");
    }

    @Test
    void proxyImageRunsProxyMainAsTheChartsUserOnItsPort() throws Exception {
        JsonNode deployment = production.one("Deployment", RenderedChart.FULLNAME + "-proxy");
        JsonNode container = deployment.at("/spec/template/spec/containers/0");
        ImageConfig config = ImageArchive.of("proxy-host", container.path("image").asText()).config();

        assertRunsMain(config, "dev.stockade.proxy.ProxyMain", "-XX:MaxRAMPercentage=75");
        assertThat(config.entrypoint()).as("the proxy's collector (docs/proxy.md)").contains("-XX:+UseZGC");
        assertThat(config.user()).isEqualTo(chartUser(deployment));
        assertThat(config.exposedPorts()).isEqualTo(containerPorts(container));
        assertLabels(config, "stockade/proxy");
    }

    @Test
    void runtimeImageIsTheOneTheKubernetesProvisionerStarts() throws Exception {
        String reference = defaults.platformConfig().at("/sandbox/k8s/image").asText();
        ImageConfig config = ImageArchive.of("runtime-host", reference).config();

        assertRunsMain(config, "dev.stockade.runtime.RuntimeMain", "-XX:MaxRAMPercentage=50");
        assertThat(config.user()).isEqualTo("10001:10001");
        // spec/runtime.md: the runtime's HTTP server listens on PORT, 3003 unless set
        assertThat(config.exposedPorts()).containsExactly("3003/tcp");
        assertLabels(config, "stockade/runtime");
    }

    @Test
    void everyImageCarriesTheJvmAndTheCaBundleInItsEnvironment() throws Exception {
        ImageConfig config = ImageArchive.of("api-host", defaults.platformContainer().path("image").asText()).config();
        assertThat(config.env()).contains("JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64", "LANG=C.UTF-8");
        assertThat(config.workingDir()).isEqualTo("/home/stockade");
    }

    private static void assertRunsMain(ImageConfig config, String mainClass, String heapFlag) {
        List<String> entrypoint = config.entrypoint();
        assertThat(entrypoint).first().isEqualTo("java");
        assertThat(entrypoint).last().isEqualTo(mainClass);
        assertThat(entrypoint).contains(heapFlag, "-XX:+ExitOnOutOfMemoryError");
        // no subcommand and no default arguments: the chart's args are the main's whole command line
        assertThat(config.cmd()).isEmpty();
    }

    private static void assertLabels(ImageConfig config, String title) {
        assertThat(config.labels()).containsEntry("org.opencontainers.image.title", title)
                .containsEntry("org.opencontainers.image.version",
                        System.getProperty("stockade.version", "").replace("-SNAPSHOT", ""));
    }

    private static String chartUser(JsonNode deployment) {
        JsonNode context = deployment.at("/spec/template/spec/securityContext");
        assertThat(context.path("runAsNonRoot").asBoolean()).isTrue();
        return context.path("runAsUser").asInt() + ":" + context.path("runAsGroup").asInt();
    }

    private static SortedSet<String> containerPorts(JsonNode container) {
        SortedSet<String> ports = new TreeSet<>();
        container.path("ports").forEach(p -> ports.add(p.path("containerPort").asInt() + "/"
                + p.path("protocol").asText().toLowerCase(java.util.Locale.ROOT)));
        return ports;
    }
}
