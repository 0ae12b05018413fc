package dev.stockade.bench.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.bench.sandbox.BenchPlatform;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The latency the {@code /llm} proxy adds over calling the provider directly, both measured in the same run against
 * the same provider double in this JVM (OpenAI Chat Completions: a whole answer at once; a stream whose first chunk
 * is sent at once and whose ten more follow 20 ms apart, then the usage chunk and {@code [DONE]}):
 * <ol>
 *   <li>whole answers: request to full answer, at 1 caller and at {@code streams} callers;</li>
 *   <li>streams: time to the first content chunk (TTFT) with {@code streams} streams open at once.</li>
 * </ol>
 * The platform is the jar a user runs, with the openai backend pointed at the double. Every answer is checked outside
 * the timed span (status 200 and the double's text); the run stops at the first wrong one.
 * Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.inference.LlmProxyBench [seconds]
 * [streams]} (defaults 10 and 200)
 */
public final class LlmProxyBench {
    static final String TEXT = "Hello from the double";
    private static final String WHOLE = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-4o-mini\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + TEXT + "\"},"
            + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5,\"total_tokens\":17}}";
    private static final String REQUEST = "{\"model\":\"gpt-4o-mini\",\"max_tokens\":64,\"messages\":[{\"role\":"
            + "\"user\",\"content\":\"hi\"}]%s}";

    private LlmProxyBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int streams = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        System.setProperty("sun.net.httpserver.nodelay", "true"); // providers answer with TCP_NODELAY
        // the JDK server closes kept-alive connections beyond 200 idle ones; the platform's pool holds one per
        // stream, so a closed one would be found only on reuse (a provider keeps thousands open)
        System.setProperty("sun.net.httpserver.maxIdleConnections", "2000");
        HttpServer upstream = upstream();
        String direct = "http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1/chat/completions";
        Map<String, String> env = Map.of("INFERENCE_OPENAI_ENABLED", "true", "INFERENCE_OPENAI_BASE_URL",
                "http://127.0.0.1:" + upstream.getAddress().getPort(), "INFERENCE_OPENAI_API_KEY_SECRET", "openai",
                "INFERENCE_ALLOW_LOOPBACK_UNSAFE", "true");
        try (BenchPlatform platform = BenchPlatform.start(18592, env, Map.of("openai", "sk-bench"))) {
            String token = setUp(platform);
            String proxied = platform.base + "/v1/projects/" + project + "/llm/openai/v1/chat/completions";
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .executor(Executors.newFixedThreadPool(32, daemon()))
                    .connectTimeout(Duration.ofSeconds(10)).build();
            // untimed: the platform's JIT compiles the proxy's path (and the client's) before any phase is measured,
            // so the first phase does not measure a cold JVM
            whole(client, direct, null, 8, seconds);
            whole(client, proxied, token, 8, seconds);
            firstChunks(client, proxied, token, 8, seconds);
            for (int callers : List.of(1, streams)) {
                BenchPlatform.report("whole answer, direct, " + callers + " caller(s)",
                        whole(client, direct, null, callers, seconds));
                BenchPlatform.report("whole answer, through the proxy, " + callers + " caller(s)",
                        whole(client, proxied, token, callers, seconds));
            }
            BenchPlatform.report("first chunk, direct, " + streams + " streams", firstChunks(client, direct, null,
                    streams, seconds));
            BenchPlatform.report("first chunk, through the proxy, " + streams + " streams", firstChunks(client,
                    proxied, token, streams, seconds));
            System.out.printf("platform CPU: %.0f ms in all%n", platform.cpuMillis());
        } finally {
            upstream.stop(0);
        }
    }

    private static String project;

    private static String setUp(BenchPlatform platform) throws Exception {
        Caller c = caller(platform, "bench", "");
        project = c.project();
        return c.token();
    }

    /** A project's API token bound to a policy enabling the openai backend; {@code policyExtra}: more policy JSON. */
    record Caller(String project, String token) {
    }

    static Caller caller(BenchPlatform platform, String name, String policyExtra) throws Exception {
        String org = platform.send("POST", "/v1/orgs", "{\"name\":\"" + name + "\"}").path("id").asText();
        String project = platform.send("POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"llm\"}").path("id")
                .asText();
        String policy = platform.send("POST", "/v1/projects/" + project + "/policies", "{\"name\":\"gpt\","
                + "\"managedInference\":{\"enabled\":true,\"provider\":\"openai\"}" + policyExtra + "}")
                .path("id").asText();
        JsonNode token = platform.send("POST", "/v1/orgs/" + org + "/api-tokens", "{\"name\":\"agent\"}");
        String tokenId = token.path("id").asText();
        platform.send("PUT", "/v1/projects/" + project + "/members/api-tokens/" + tokenId, "{\"role\":\"MEMBER\"}");
        platform.send("POST", "/v1/projects/" + project + "/policy-bindings", "{\"policyId\":\"" + policy
                + "\",\"apiTokenId\":\"" + tokenId + "\"}");
        return new Caller(project, token.path("token").asText());
    }

    /** {@code callers} threads sending whole-answer calls back to back for {@code seconds}; latencies in ms. */
    private static List<Double> whole(HttpClient client, String url, String token, int callers, int seconds)
            throws Exception {
        return run(callers, seconds, () -> {
            long start = System.nanoTime();
            HttpResponse<String> r = client.send(request(url, token, ""), HttpResponse.BodyHandlers.ofString());
            double ms = (System.nanoTime() - start) / 1e6;
            check(r.statusCode() == 200 && r.body().contains(TEXT), r.statusCode() + " " + r.body());
            return ms;
        });
    }

    /** {@code streams} threads each opening a stream, timing its first content chunk, then reading it to the end. */
    private static List<Double> firstChunks(HttpClient client, String url, String token, int streams, int seconds)
            throws Exception {
        return run(streams, seconds, () -> {
            long start = System.nanoTime();
            HttpResponse<InputStream> r = client.send(request(url, token, ",\"stream\":true"),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                String line = in.readLine();
                while (line != null && !line.contains("\"content\"")) {
                    line = in.readLine();
                }
                double ms = (System.nanoTime() - start) / 1e6;
                StringBuilder rest = new StringBuilder(line == null ? "" : line);
                for (String l = in.readLine(); l != null; l = in.readLine()) {
                    rest.append(l);
                }
                check(r.statusCode() == 200 && rest.toString().contains("[DONE]"), r.statusCode() + " " + rest);
                return ms;
            }
        });
    }

    interface Call {
        double once() throws Exception;
    }

    static List<Double> run(int threads, int seconds, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        List<Future<List<Double>>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                List<Double> ms = new ArrayList<>();
                while (System.nanoTime() < end) {
                    ms.add(call.once());
                }
                return ms;
            }));
        }
        List<Double> all = Collections.synchronizedList(new ArrayList<>());
        for (Future<List<Double>> f : futures) {
            all.addAll(f.get());
        }
        pool.shutdown();
        return all;
    }

    private static HttpRequest request(String url, String token, String extra) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(String.format(REQUEST, extra)));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b.build();
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("wrong answer, the benchmark stops: " + what);
        }
    }

    /** The provider double: whole answers at once; streams with the first chunk at once, then ten 20 ms apart. */
    static HttpServer upstream() throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        s.setExecutor(Executors.newCachedThreadPool());
        s.createContext("/v1/chat/completions", LlmProxyBench::answer);
        s.start();
        return s;
    }

    private static void answer(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (!body.contains("\"stream\":true")) {
                byte[] bytes = WHOLE.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(200, bytes.length);
                ex.getResponseBody().write(bytes);
                return;
            }
            ex.getResponseHeaders().add("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            for (int i = 0; i <= 10; i++) {
                if (i > 0) {
                    sleep(20); // the model producing its next tokens
                }
                data(out, "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini\","
                        + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + TEXT + " \"},\"finish_reason\":"
                        + (i == 10 ? "\"stop\"" : "null") + "}]}");
            }
            if (body.contains("include_usage")) {
                data(out, "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-mini\","
                        + "\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":55,\"total_tokens\":67}}");
            }
            data(out, "[DONE]");
        }
    }

    private static void data(OutputStream out, String json) throws IOException {
        out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The client's threads: daemons, so the run ends when main does. */
    private static java.util.concurrent.ThreadFactory daemon() {
        return r -> {
            Thread t = new Thread(r, "bench-client");
            t.setDaemon(true);
            return t;
        };
    }
}
