package dev.stockade.bench.inference;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.bench.sandbox.BenchPlatform;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The latency PII masking adds to a model call through the {@code /llm} proxy, per KB of request: the same
 * whole-answer Chat Completions call at 1, 16 and 64 KB of user text (prose with an email address and a phone number
 * every 200 bytes or so), alternately for a project whose policy masks (EMAIL, PHONE, CREDIT_CARD) and one whose
 * policy does not, one caller at a time, in the same run against the same provider double. Every answer is checked
 * (status 200 and the double's text) outside the timed span.
 * Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.inference.MaskingLatencyBench [seconds]}
 * (per size and policy; default 10)
 */
public final class MaskingLatencyBench {
    private static final String SENTENCE = "Please forward the quarterly figures to jane.doe@example.org and call me "
            + "at (415) 867-5309 before the review on Thursday, and keep the appendix as it is. ";
    private static final List<Integer> KB = List.of(1, 16, 64);

    private MaskingLatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer upstream = LlmProxyBench.upstream();
        Map<String, String> env = Map.of("INFERENCE_OPENAI_ENABLED", "true", "INFERENCE_OPENAI_BASE_URL",
                "http://127.0.0.1:" + upstream.getAddress().getPort(), "INFERENCE_OPENAI_API_KEY_SECRET", "openai",
                "INFERENCE_ALLOW_LOOPBACK_UNSAFE", "true");
        try (BenchPlatform platform = BenchPlatform.start(18593, env, Map.of("openai", "sk-bench"))) {
            LlmProxyBench.Caller plain = LlmProxyBench.caller(platform, "plain", "");
            LlmProxyBench.Caller masked = LlmProxyBench.caller(platform, "masked",
                    ",\"piiMasking\":{\"types\":[\"EMAIL\",\"PHONE\",\"CREDIT_CARD\"],\"unmaskResponses\":false}");
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .executor(Executors.newFixedThreadPool(4, daemon())).connectTimeout(Duration.ofSeconds(10)).build();
            for (int kb : KB) {
                String body = body(kb);
                // warm both paths at this size, then time them in alternating slices
                timed(client, platform, plain, body, 2);
                timed(client, platform, masked, body, 2);
                List<Double> off = new ArrayList<>();
                List<Double> on = new ArrayList<>();
                for (int slice = 0; slice < 4; slice++) {
                    off.addAll(timed(client, platform, plain, body, Math.max(1, seconds / 4)));
                    on.addAll(timed(client, platform, masked, body, Math.max(1, seconds / 4)));
                }
                BenchPlatform.report(kb + " KB request, no masking", off);
                BenchPlatform.report(kb + " KB request, masked (EMAIL, PHONE, CREDIT_CARD)", on);
                System.out.printf("%d KB: masking adds %.2f ms at p50, %.3f ms per KB%n", kb,
                        median(on) - median(off), (median(on) - median(off)) / kb);
            }
            System.out.printf("platform CPU: %.0f ms in all%n", platform.cpuMillis());
        } finally {
            upstream.stop(0);
        }
    }

    /** A Chat Completions request whose one user message is {@code kb} KB of prose with contact details in it. */
    static String body(int kb) {
        StringBuilder text = new StringBuilder();
        while (text.length() < kb * 1024) {
            text.append(SENTENCE);
        }
        text.setLength(kb * 1024);
        return "{\"model\":\"gpt-4o-mini\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\""
                + text + "\"}]}";
    }

    private static List<Double> timed(HttpClient client, BenchPlatform platform, LlmProxyBench.Caller caller,
                                      String body, int seconds) throws Exception {
        URI url = URI.create(platform.base + "/v1/projects/" + caller.project() + "/llm/openai/v1/chat/completions");
        HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + caller.token())
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return LlmProxyBench.run(1, seconds, () -> {
            long start = System.nanoTime();
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            double ms = (System.nanoTime() - start) / 1e6;
            LlmProxyBench.check(r.statusCode() == 200 && r.body().contains(LlmProxyBench.TEXT),
                    r.statusCode() + " " + r.body());
            return ms;
        });
    }

    private static double median(List<Double> ms) {
        List<Double> s = new ArrayList<>(ms);
        Collections.sort(s);
        return s.get(s.size() / 2);
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
