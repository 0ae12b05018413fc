package dev.stockade.api.support;

import dev.stockade.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Keycloak on loopback, as an external OpenID Connect provider: the official distribution that
 * {@code api-host/src/test/keycloak/fetch.sh} caches and builds (.ci/run runs it), copied to a scratch folder, started
 * on an in-memory database with the realm of {@code src/test/keycloak/realm.json} imported. Stopped with its process
 * tree.
 */
public final class Keycloak implements AutoCloseable {
    public static final String VERSION = "26.7.3";
    private static final Path REALM = Path.of("src/test/keycloak/realm.json").toAbsolutePath();
    private final Process process;
    private final Path scratch;
    private final int port;

    private Keycloak(Process process, Path scratch, int port) {
        this.process = process;
        this.scratch = scratch;
        this.port = port;
    }

    /** The realm's issuer URL, as tokens carry it. */
    public String issuer() {
        return "http://127.0.0.1:" + port + "/realms/stockade";
    }

    /** Starts Keycloak and waits for the realm's discovery (a minute on a quiet machine; the bound allows a busy one). */
    public static Keycloak start() {
        Path dist = Path.of(Optional.ofNullable(System.getenv("STOCKADE_CACHE"))
                .orElse(System.getProperty("user.home") + "/.cache/stockade"), "keycloak-" + VERSION);
        Assumptions.assumeTrue(Files.exists(dist.resolve(".stockade-built")), () -> dist + " is missing: run"
                + " `bash api-host/src/test/keycloak/fetch.sh` (.ci/run does)");
        Path java = java21();
        int port = Node.freePort();
        try {
            Path scratch = Files.createTempDirectory("stockade-keycloak");
            copy(dist, scratch);
            Files.createDirectories(scratch.resolve("data/import"));
            Files.copy(REALM, scratch.resolve("data/import/stockade-realm.json"));
            // the server fetch.sh built for the in-memory database, started without rebuilding; plain http on
            // loopback, the host name taken from each request
            ProcessBuilder pb = new ProcessBuilder(scratch.resolve("bin/kc.sh").toString(), "start", "--optimized",
                    "--http-enabled=true", "--http-host=127.0.0.1", "--http-port=" + port,
                    "--http-management-port=" + Node.freePort(), "--hostname-strict=false", "--import-realm")
                    .redirectErrorStream(true).redirectOutput(scratch.resolve("keycloak.log").toFile());
            pb.environment().put("JAVA_HOME", java.toString());
            Keycloak kc = new Keycloak(pb.start(), scratch, port);
            HttpClient http = HttpClient.newHttpClient();
            Await.until("Keycloak's realm discovery (log: " + scratch.resolve("keycloak.log") + ")",
                    Duration.ofMinutes(10), () -> {
                        if (!kc.process.isAlive()) {
                            throw new IllegalStateException("Keycloak exited: " + tail(scratch.resolve("keycloak.log")));
                        }
                        return ok(http, kc.issuer() + "/.well-known/openid-configuration");
                    });
            return kc;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JDK of version 21 or later (Keycloak 26's floor): STOCKADE_KEYCLOAK_JAVA, else the newest in /usr/lib/jvm. */
    private static Path java21() {
        String named = System.getenv("STOCKADE_KEYCLOAK_JAVA");
        if (named != null && !named.isBlank()) {
            return Path.of(named);
        }
        try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm"))) {
            Optional<Path> found = jdks.filter(p -> feature(p) >= 21).max(Comparator.comparingInt(Keycloak::feature));
            Assumptions.assumeTrue(found.isPresent(), "Keycloak 26 needs Java 21 or later: none in /usr/lib/jvm (set"
                    + " STOCKADE_KEYCLOAK_JAVA)");
            return found.get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int feature(Path jdk) {
        try {
            Path release = jdk.resolve("release");
            if (!Files.isRegularFile(release) || !Files.isExecutable(jdk.resolve("bin/java"))) {
                return 0;
            }
            for (String line : Files.readAllLines(release)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Integer.parseInt(v.split("[.+-]")[0]);
                }
            }
            return 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static boolean ok(HttpClient http, String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> all = Files.walk(scratch)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a scratch folder left in /tmp is harmless
        }
    }
}
