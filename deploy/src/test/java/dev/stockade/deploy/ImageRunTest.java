package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.deploy.ImageArchive.ImageConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each image starts from its own entrypoint, as its own non-root user, with the arguments the chart gives it, and
 * answers its health check: the platform with its embedded PostgreSQL in a fresh data volume and a read-only root (the
 * chart's securityContext), the proxy over a policy file, the runtime with its SQLite. No daemon: the layers are
 * unpacked with umoci and run under bubblewrap.
 */
class ImageRunTest {
    /** A first start initialises the embedded PostgreSQL and runs every migration (the chart allows ten minutes). */
    private static final Duration PLATFORM_START = Duration.ofMinutes(4);
    private static final Duration HOST_START = Duration.ofMinutes(2);

    /** Under target/: an unpacked image is half a gigabyte, and JUnit's @TempDir warns on each of its symlinks. */
    private Path work;

    @BeforeEach
    void workDirectory() throws IOException {
        work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "image-run")), "run");
    }

    @AfterEach
    void deleteWorkDirectory() throws IOException {
        // depth first, links themselves (Files.walk does not follow them): the image's absolute links point at the host
        try (Stream<Path> tree = Files.walk(work)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void platformImageServesHealthAsUser10001WithItsEmbeddedDatabase() throws Exception {
        ImageArchive image = ImageArchive.of("api-host",
                RenderedChart.render(Map.of()).platformContainer().path("image").asText());
        ImageConfig config = image.config();
        Path rootfs = image.unpack(work.resolve("image"));
        int port = freePort();
        // the chart's arguments (platform-deployment.yaml) but loopback and a free port: the test shares the host's network
        List<String> args = List.of("--data-dir=/data", "--bind=127.0.0.1", "--port=" + port);
        try (ImageContainer c = ImageContainer.start(rootfs, true, config, data(), args, work.resolve("platform.log"))) {
            c.awaitHealthy(URI.create("http://127.0.0.1:" + port + "/health"), PLATFORM_START);
            assertThat(c.processUid()).as(c.output()).isEqualTo(10001);
        }
        // the embedded database and the owner token live in the volume, written by the image's user
        try (Stream<Path> written = Files.list(work.resolve("data"))) {
            List<Path> entries = written.toList();
            assertThat(entries).as("the data volume after a start").isNotEmpty();
            for (Path entry : entries) {
                assertThat(Files.getAttribute(entry, "unix:uid")).as("owner of %s", entry).isEqualTo(10001);
            }
        }
    }

    @Test
    void proxyImageServesHealthAsUser10001() throws Exception {
        ImageArchive image = ImageArchive.of("proxy-host", RenderedChart.renderValuesFile("production")
                .one("Deployment", RenderedChart.FULLNAME + "-proxy").at("/spec/template/spec/containers/0/image")
                .asText());
        ImageConfig config = image.config();
        Path rootfs = image.unpack(work.resolve("image"));
        Path data = data();
        Files.copy(ImageArchive.PROJECT.resolve("examples/policies/github-agent.yaml"), data.resolve("policy.yaml"));
        int port = freePort();
        int admin = freePort();
        // the chart's arguments (proxy.yaml) with a policy file for the platform's feed, which needs a platform
        List<String> args = List.of("--policy=/data/policy.yaml", "--bind=127.0.0.1", "--port=" + port,
                "--data-dir=/data", "--admin-port=" + admin, "--max-header-bytes=32768");
        try (ImageContainer c = ImageContainer.start(rootfs, true, config, data, args, work.resolve("proxy.log"))) {
            c.awaitHealthy(URI.create("http://127.0.0.1:" + admin + "/health"), HOST_START);
            assertThat(c.processUid()).as(c.output()).isEqualTo(10001);
            try (Socket socket = new Socket("127.0.0.1", port)) {
                assertThat(socket.isConnected()).as("the chart's tcpSocket probe reaches the listener").isTrue();
            }
        }
    }

    @Test
    void runtimeImageServesHealthAsUser10001() throws Exception {
        ImageArchive image = ImageArchive.of("runtime-host",
                RenderedChart.render(Map.of()).platformConfig().at("/sandbox/k8s/image").asText());
        ImageConfig config = image.config();
        int port = freePort();
        // the runtime reads its port from the environment (spec/runtime.md: PORT), as the provisioner sets it
        ImageConfig withPort = new ImageConfig(config.entrypoint(), config.cmd(), config.user(), config.workingDir(),
                config.exposedPorts(), append(config.env(), "PORT=" + port), config.labels(), config.healthcheck());
        Path rootfs = image.unpack(work.resolve("image"));
        // the provisioner's sandbox pod keeps the root writable: the runtime's data directory is under its home
        try (ImageContainer c = ImageContainer.start(rootfs, false, withPort, data(), List.of(),
                work.resolve("runtime.log"))) {
            c.awaitHealthy(URI.create("http://127.0.0.1:" + port + "/health"), HOST_START);
            assertThat(c.processUid()).as(c.output()).isEqualTo(10001);
        }
    }

    private Path data() throws IOException {
        return Files.createDirectories(work.resolve("data"));
    }

    private static List<String> append(List<String> env, String pair) {
        return Stream.concat(env.stream(), Stream.of(pair)).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
