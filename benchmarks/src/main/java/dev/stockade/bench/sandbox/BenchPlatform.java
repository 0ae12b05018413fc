package dev.stockade.bench.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The platform as a user runs it ({@code java -XX:+UseZGC -jar api-host/target/stockade-platform.jar --dev-hub}, the
 * collector {@code ./stockade serve} chooses), started as a process for a benchmark, and the REST and exec calls the
 * benchmarks make against it.
 */
public final class BenchPlatform implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    public final Path dir;
    public final String base;
    public final String owner;
    private final Process process;

    private BenchPlatform(Path dir, String base, String owner, Process process) {
        this.dir = dir;
        this.base = base;
        this.owner = owner;
        this.process = process;
    }

    /** Starts the platform on {@code port} with a fresh data directory and extra environment; waits for enrollment. */
    public static BenchPlatform start(int port, Map<String, String> env) throws Exception {
        return start(port, env, Map.of());
    }

    /** As {@link #start(int, Map)}, with named secrets ({@code <dataDir>/secrets/<name>/apiKey}) written first. */
    public static BenchPlatform start(int port, Map<String, String> env, Map<String, String> apiKeys)
            throws Exception {
        Path dir = Files.createTempDirectory("stockade-bench");
        for (Map.Entry<String, String> k : apiKeys.entrySet()) {
            Path secret = Files.createDirectories(dir.resolve("secrets").resolve(k.getKey()));
            Files.writeString(secret.resolve("apiKey"), k.getValue());
        }
        return launch(dir, port, List.of(), env);
    }

    /**
     * One platform replica on the external database {@code databaseUrl} (as user {@code postgres}), with its data
     * directory {@code dir} prepared by the caller (the installation's shared key, the dev hub's fleets); the owner
     * token is the one the first replica wrote into {@code ownerTokenDir}.
     */
    public static BenchPlatform replica(Path dir, int port, String databaseUrl, Path config, Path ownerTokenDir,
                                        Map<String, String> env) throws Exception {
        BenchPlatform p = launch(dir, port, List.of("--database-url", databaseUrl, "--database-user", "postgres",
                "--config", config.toString(), "--database-pool-size", "10"), env);
        return new BenchPlatform(dir, p.base, Files.readString(ownerTokenDir.resolve("owner-token")).trim(),
                p.process);
    }

    private static BenchPlatform launch(Path dir, int port, List<String> extra, Map<String, String> env)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(javaOptions());
        command.addAll(List.of("-jar", "api-host/target/stockade-platform.jar",
                "--dev-hub", "--data-dir", dir.toString(), "--port", Integer.toString(port)));
        command.addAll(extra);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("platform.log").toFile()));
        pb.environment().putAll(env);
        BenchPlatform p = new BenchPlatform(dir, "http://127.0.0.1:" + port, null, pb.start());
        p.awaitEnrolled();
        Path token = dir.resolve("owner-token");
        return Files.exists(token) ? new BenchPlatform(dir, p.base, Files.readString(token).trim(), p.process) : p;
    }

    /**
     * The JVM options {@code ./stockade serve} gives the platform: ZGC unless {@code BENCH_PLATFORM_JAVA_OPTIONS}
     * (extra options for the platform's JVM, a flight recording say) names a collector, as {@code STOCKADE_JAVA_OPTS}
     * does for the launcher.
     */
    static List<String> javaOptions() {
        String extra = System.getenv().getOrDefault("BENCH_PLATFORM_JAVA_OPTIONS", "").strip();
        List<String> out = new ArrayList<>();
        if (!extra.matches(".*-XX:\\+Use[A-Za-z0-9]*GC.*")) {
            out.add("-XX:+UseZGC");
        }
        if (!extra.isEmpty()) {
            out.addAll(List.of(extra.split("\\s+")));
        }
        return out;
    }

    /** The lines of this replica's log that contain {@code text} (its own account of what it did, and when). */
    public List<String> logLines(String text) throws IOException {
        try (var lines = Files.lines(dir.resolve("platform.log"))) {
            return lines.filter(l -> l.contains(text)).map(String::strip).toList();
        }
    }

    /** SIGKILL: no shutdown hook runs; returns once the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL on Linux
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the platform did not die within 30 s of SIGKILL");
        }
    }

    public JsonNode send(String method, String path, String body) throws Exception {
        return send(owner, method, path, body);
    }

    public JsonNode send(String token, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 400) {
            throw new IllegalStateException(method + " " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
    }

    /** Runs {@code command} in the sandbox at {@code path} over the exec socket; its exit status and stdout. */
    Exec exec(String path, String... command) throws Exception {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder query = new StringBuilder();
        for (String c : command) {
            query.append(query.length() == 0 ? "?" : "&").append("command=")
                    .append(java.net.URLEncoder.encode(c, StandardCharsets.UTF_8));
        }
        WebSocket ws = HTTP.newWebSocketBuilder().header("Authorization", "Bearer " + owner).buildAsync(
                URI.create(base.replace("http", "ws") + path + "/exec" + query), new WebSocket.Listener() {
                    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

                    @Override
                    public CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
                        byte[] b = new byte[data.remaining()];
                        data.get(b);
                        partial.writeBytes(b);
                        if (last) {
                            byte[] f = partial.toByteArray();
                            partial.reset();
                            if (f[0] == 1) {
                                out.write(f, 1, f.length - 1);
                            } else if (f.length == 5 && f[0] == 3) {
                                exit.complete(((f[1] & 0xff) << 24) | ((f[2] & 0xff) << 16) | ((f[3] & 0xff) << 8)
                                        | (f[4] & 0xff));
                            } else if (f.length == 1 && f[0] == 5) {
                                w.sendBinary(ByteBuffer.wrap(new byte[] {0}), true);
                            }
                        }
                        w.request(1);
                        return null;
                    }
                }).get(30, TimeUnit.SECONDS);
        int status = exit.get(60, TimeUnit.SECONDS);
        ws.abort();
        return new Exec(status, out.toString(StandardCharsets.UTF_8));
    }

    record Exec(int status, String out) {
    }

    /** CPU time the platform process has used so far (user + system), from /proc. */
    public double cpuMillis() throws IOException {
        String[] f = Files.readString(Path.of("/proc/" + process.pid() + "/stat")).replaceAll(".*\\) ", "").split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000.0 / 100; // fields 14, 15 in clock ticks (100/s)
    }

    public static void report(String what, List<Double> ms) {
        List<Double> s = new ArrayList<>(ms);
        Collections.sort(s);
        System.out.printf("%-62s n=%d p50=%.1f ms p90=%.1f ms p99=%.1f ms max=%.1f ms%n", what, s.size(),
                s.get(s.size() / 2), s.get((int) (s.size() * 0.9)), s.get(Math.min(s.size() - 1,
                        (int) Math.ceil(s.size() * 0.99) - 1)), s.get(s.size() - 1));
    }

    private void awaitEnrolled() throws Exception {
        for (int i = 0; i < 600; i++) {
            try {
                if (send(null, "GET", "/v1/installation", null).path("enrolled").asBoolean()) {
                    return;
                }
            } catch (IOException starting) {
                // not listening yet
            }
            Thread.sleep(200); // the platform starts: bounded poll
        }
        throw new IllegalStateException("the platform did not enroll; see " + dir.resolve("platform.log"));
    }

    @Override
    public void close() throws InterruptedException, IOException {
        process.destroy();
        if (process.waitFor(300, TimeUnit.SECONDS)) { // hundreds of running sandboxes take a while to stop
            dev.stockade.bench.Scratch.remove(dir); // its database alone is tens of MB
        }
    }
}
