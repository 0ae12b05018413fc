package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The real platform for the REST commands' tests: {@code api-host/target/stockade-platform.jar} started once per
 * test JVM as {@code serve --dev-hub} on a loopback port, with its embedded PostgreSQL in a temporary data directory,
 * stopped (SIGTERM, which stops PostgreSQL too) when the JVM exits.
 */
final class Platform {
    private static Platform shared;

    final URI url;
    final Path dataDir;
    private final Process process;

    private Platform(URI url, Path dataDir, Process process) {
        this.url = url;
        this.dataDir = dataDir;
        this.process = process;
    }

    /** The platform of this test JVM, started on first use and enrolled with its dev hub. */
    static synchronized Platform shared() throws Exception {
        if (shared == null) {
            String jar = System.getProperty("stockade.platformJar");
            Assumptions.assumeTrue(jar != null, "platform tests are off (-DskipPlatformTests)");
            shared = start(Path.of(jar));
        }
        return shared;
    }

    /** The installation owner's token, as the platform wrote it on first start. */
    String ownerToken() throws IOException {
        return Files.readString(ownerTokenFile()).trim();
    }

    Path ownerTokenFile() {
        return dataDir.resolve("owner-token");
    }

    private static Platform start(Path jar) throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build api-host first (./mvnw -pl cli -am verify)");
        }
        Path dir = Files.createTempDirectory("stockade-cli-platform");
        int port = freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx384m", "-XX:TieredStopAtLevel=1", "-jar",
                jar.toString(), "--data-dir", dir.resolve("data").toString(), "--dev-hub", "--port",
                Integer.toString(port))).redirectErrorStream(true).redirectOutput(dir.resolve("platform.log").toFile());
        pb.environment().put("SANDBOX_EGRESS_PORT", "0"); // the egress proxy on any free port: tests may overlap
        pb.environment().put("CONNECTORS_ALLOW_LOOPBACK_UNSAFE", "true"); // the connector tests upstream is local
        Process p = pb.start();
        Platform platform = new Platform(URI.create("http://127.0.0.1:" + port), dir.resolve("data"), p);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> platform.stop(dir), "stockade-test-platform-stop"));
        platform.awaitEnrolled(dir.resolve("platform.log"));
        return platform;
    }

    private void awaitEnrolled(Path log) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(4)); // embedded PostgreSQL on a busy 2-core machine
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the platform exited with " + process.exitValue() + ":\n"
                        + Files.readString(log));
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url.resolve("/v1/installation"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && new ObjectMapper().readTree(r.body()).path("enrolled").asBoolean()
                        && Files.exists(ownerTokenFile())) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250); // poll the platform process until it serves, bounded by the deadline above
        }
        throw new IllegalStateException("the platform did not enroll within 4 minutes:\n" + Files.readString(log));
    }

    private void stop(Path dir) {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        } catch (InterruptedException | IOException e) {
            // the JVM is exiting; a leftover temporary directory is harmless
        }
    }

    /** A loopback port nobody listens on right now (the platform binds it a moment later). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
