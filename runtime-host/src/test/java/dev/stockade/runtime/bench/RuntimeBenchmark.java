package dev.stockade.runtime.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures the runtime as a separate process: start to ready (spawn until /health answers), then an
 * open-loop load at a fixed rate (latency counted from each request's scheduled send time, so a stall is
 * not hidden) against GET /health (the baseline: HTTP only), a deliver-only webhook (one SQLite write),
 * and agent webhooks (durable acceptance, then runs against a provider double answering at once). The double runs
 * in a process of its own ({@link ProviderProcess}), so this JVM only generates the load and measures it.
 *
 * <p>Usage: {@code RuntimeBenchmark <runtime jar> <rate/s> <seconds> <warmup seconds> <starts>}
 */
public final class RuntimeBenchmark {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RuntimeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args[0]);
        int rate = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        int starts = Integer.parseInt(args[4]);
        System.out.printf("runtime JVM options: [%s]; provider double: its own process%n",
                System.getProperty("bench.runtime.jvm", "").trim());
        try (ProviderProcess provider = ProviderProcess.start()) {
            List<Double> startMs = new ArrayList<>();
            for (int i = 0; i < starts; i++) {
                Path home = Files.createTempDirectory("rt-bench");
                Running r = spawn(jar, home, provider.base());
                startMs.add(r.readyMs);
                r.process.destroy();
                r.process.waitFor();
                removeTree(home);
            }
            startMs.sort(Double::compare);
            System.out.printf("start-to-ready (spawn to first /health 200), %d fresh data homes: median %.0f ms, "
                    + "min %.0f, max %.0f%n", starts, startMs.get(starts / 2), startMs.get(0), startMs.get(starts - 1));
            Path home = Files.createTempDirectory("rt-bench");
            Running r = spawn(jar, home, provider.base());
            try {
                load(r, provider, rate, seconds, warmup);
            } finally {
                r.process.destroy();
                r.process.waitFor();
                removeTree(home);
            }
        }
    }

    /** Removes a benchmark's scratch directory (an agent home, a memory database: hundreds of MB) when it is done. */
    static void removeTree(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    record Running(Process process, String base, double readyMs) {
    }

    private static Running spawn(Path jar, Path home, String providerBase) throws Exception {
        return spawn(jar, home, providerBase, Map.of());
    }

    /**
     * Starts the runtime jar on a fresh data home with {@code extraEnv} added, its model at the provider double
     * {@code providerBase}, and waits until it is ready.
     */
    static Running spawn(Path jar, Path home, String providerBase, Map<String, String> extraEnv) throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // JVM options of the runtime (a collector, heap sizing) as an operator would add them:
        // -Dbench.runtime.jvm="..."
        List<String> cmd = new ArrayList<>(List.of("java"));
        String opts = System.getProperty("bench.runtime.jvm", "").trim();
        if (!opts.isEmpty()) {
            cmd.addAll(List.of(opts.split("\\s+")));
        }
        cmd.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(home.resolve("runtime.log").toFile());
        Map<String, String> env = pb.environment();
        env.put("AGENT_HOME", home.toString());
        env.put("PORT", Integer.toString(port));
        env.put("LLM_PROVIDER", "azure");
        env.put("AZURE_FOUNDRY_BASE_URL", providerBase + "/anthropic/v1");
        env.put("AZURE_API_KEY", "bench-key");
        env.put("AZURE_EMBEDDING_MODEL_ID", "");
        env.putAll(extraEnv);
        String base = "http://127.0.0.1:" + port;
        long t0 = System.nanoTime();
        Process p = pb.start();
        while (true) {
            try {
                if (send("GET", base + "/health", null).statusCode() == 200) {
                    break;
                }
            } catch (Exception e) {
                Thread.sleep(5); // measuring start to ready: poll /health until the process answers
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("runtime exited; see " + home.resolve("runtime.log"));
            }
        }
        return new Running(p, base, (System.nanoTime() - t0) / 1e6);
    }

    private static void load(Running runtime, ProviderProcess provider, int rate, int seconds, int warmup)
            throws Exception {
        String base = runtime.base;
        send("PATCH", base + "/agents/webhook-receiver", "{\"enabled\":true}");
        // Enough subscriptions per phase that every request fits under the bound of 10 pending runs even if
        // no run finished, so the phase measures acceptance rather than back-pressure.
        int subs = rate * (seconds + warmup) / 8 + 10;
        for (String set : List.of("h", "r")) {
            for (int i = 0; i < subs; i++) {
                send("POST", base + "/agents/webhook-subscriptions", "{\"name\":\"" + set + i
                        + "\",\"deliverTo\":\"chat\",\"prompt\":\"Build {build.id} of {repo} is {status}\"}");
            }
        }
        send("POST", base + "/agents/webhook-subscriptions", "{\"name\":\"d\",\"deliverOnly\":true,\"deliverTo\":\"chat\","
                + "\"prompt\":\"Build {build.id} of {repo} is {status}\"}");
        String payload = "{\"build\":{\"id\":1234},\"repo\":\"acme/shop\",\"status\":\"green\"}";
        String[] names = {"GET /health (baseline)", "POST deliver-only webhook (200)",
            "POST agent webhook, runs held (202)", "POST agent webhook, runs running (202)"};
        String[] paths = {"/health", "/agents/webhooks/d", "/agents/webhooks/h", "/agents/webhooks/r"};
        for (int phase = 0; phase < 4; phase++) {
            int ph = phase;
            if (ph == 2) {
                provider.holdChats(); // the model never answers: only acceptance works
            } else if (ph == 3) {
                provider.release(1_000_000);
            }
            java.util.function.IntFunction<HttpRequest> req = i -> ph == 0
                    ? HttpRequest.newBuilder(URI.create(base + paths[0])).GET().build()
                    : HttpRequest.newBuilder(URI.create(base + paths[ph] + (ph >= 2 ? Integer.toString(i % subs) : "")))
                            .header("content-type", "application/json").header("X-GitHub-Event", "check_run")
                            .POST(HttpRequest.BodyPublishers.ofString(payload)).build();
            run(req, rate, warmup, null);
            boolean profiled = ph == Integer.getInteger("bench.jfr.phase", 3)
                    && System.getProperty("bench.jfr.out") != null;
            if (profiled) {
                jcmd(runtime.process, "JFR.start", "name=bench",
                        "settings=" + System.getProperty("bench.jfr", "profile"),
                        "filename=" + System.getProperty("bench.jfr.out"));
            }
            System.out.println(run(req, rate, seconds, names[phase]));
            if (profiled) {
                jcmd(runtime.process, "JFR.stop", "name=bench");
            }
        }
    }

    /**
     * Runs {@code jcmd} against the runtime process (JFR of one measured phase: {@code -Dbench.jfr.out=<file>},
     * optionally {@code -Dbench.jfr=<settings>} and {@code -Dbench.jfr.phase=<0-3>}).
     */
    private static void jcmd(Process runtime, String... command) throws Exception {
        Path launcher = Path.of(ProcessHandle.current().info().command().orElseThrow());
        List<String> cmd = new ArrayList<>(List.of(launcher.resolveSibling("jcmd").toString(),
                Long.toString(runtime.pid())));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("jcmd failed: " + out);
        }
    }

    private record Result(String name, int rate, long[] micros, Map<Integer, Integer> statuses) {
        @Override
        public String toString() {
            long[] s = micros.clone();
            Arrays.sort(s);
            return String.format("%-34s %d req/s x %d: p50 %.2f ms, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f; statuses %s",
                    name, rate, s.length, pct(s, 50), pct(s, 90), pct(s, 99), pct(s, 99.9), s[s.length - 1] / 1000.0,
                    statuses);
        }

        private static double pct(long[] sorted, double p) {
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100 * sorted.length) - 1)] / 1000.0;
        }
    }

    private static Result run(java.util.function.IntFunction<HttpRequest> req, int rate, int seconds, String name)
            throws Exception {
        int n = rate * seconds;
        AtomicLongArray lat = new AtomicLongArray(n);
        int[] status = new int[n];
        List<CompletableFuture<?>> pending = new ArrayList<>(n);
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime() + 50_000_000L;
        for (int i = 0; i < n; i++) {
            long due = start + i * interval;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            int k = i;
            pending.add(HTTP.sendAsync(req.apply(i), HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
                lat.set(k, (System.nanoTime() - due) / 1000);
                status[k] = e == null ? r.statusCode() : -1;
            }));
        }
        CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).exceptionally(e -> null).join();
        Map<Integer, Integer> counts = new TreeMap<>();
        List<Long> ok = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            counts.merge(status[i], 1, Integer::sum);
            if (status[i] == 200 || status[i] == 202) {
                ok.add(lat.get(i));
            }
        }
        // Percentiles are of the successful answers (200 or 202); other statuses are counted.
        return new Result(name, rate, ok.stream().mapToLong(Long::longValue).toArray(), counts);
    }

    private static HttpResponse<String> send(String method, String url, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("content-type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }
}
