package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * No overshoot through the proxy: 1,000 model calls, 64 at a time, spread over two platform replicas on one
 * PostgreSQL, against a project limit that fits far fewer: the metered spend settled never exceeds the limit, the
 * calls beyond it are refused with 429, and every call is either answered or refused (none is lost).
 */
@MicronautTest(transactional = false)
class LlmBudgetRaceTest extends PlatformTest {
    private static final int CALLS = 1000;
    private static final long LIMIT_MICROS = 50_000; // $0.05: about a hundred calls at the double's usage

    private final ProviderDouble upstream = ProviderDouble.start();

    @Override
    protected Map<String, String> extraProperties() {
        InferenceFixtures.writeSecret(dataDir, "openai", "sk-race");
        return Map.of("inference.allow-loopback-unsafe", "true", "inference.openai.enabled", "true",
                "inference.openai.base-url", upstream.baseUrl(), "inference.openai.api-key-secret", "openai");
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void concurrentCallsOnTwoReplicasNeverSettleMoreThanTheLimit() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "race");
        String project = createProject(owner, org, "agents");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "gpt",
                "managedInference", Map.of("enabled", true, "provider", "openai"))).text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", t.text("id")));
        assertThat(http.put("/v1/orgs/" + org + "/spending-limits/projects/" + project, owner,
                Map.of("amountUsd", BigDecimal.valueOf(LIMIT_MICROS, 6).toPlainString())).status()).isEqualTo(200);

        Map<String, Object> second = new HashMap<>();
        for (String key : getProperties().keySet()) { // the same database and data directory
            server.getApplicationContext().getProperty(key, String.class).ifPresent(v -> second.put(key, v));
        }
        second.put("micronaut.server.port", "-1");
        try (EmbeddedServer replica = ApplicationContext.run(EmbeddedServer.class, second)) {
            List<URI> bases = List.of(server.getURI(), replica.getURI());
            Map<Integer, AtomicInteger> statuses = race(bases, project, t.text("token"));
            assertThat(statuses.keySet()).as("statuses %s", statuses).containsOnly(200, 429);
            assertThat(statuses.get(429).get()).isPositive();
            assertThat(statuses.get(200).get() + statuses.get(429).get()).isEqualTo(CALLS);
            String usage = "/v1/orgs/" + org + "/usage-costs?groupBy=";
            var total = http.get(usage, owner).body().path("total");
            assertThat(total.path("calls").asInt()).isEqualTo(statuses.get(200).get());
            assertThat(new BigDecimal(total.path("costUsd").asText()).movePointRight(6).longValueExact())
                    .isLessThanOrEqualTo(LIMIT_MICROS);
        }
    }

    private Map<Integer, AtomicInteger> race(List<URI> bases, String project, String token) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String body = "{\"model\":\"gpt-4o-mini\",\"max_tokens\":1000,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>(Map.of(200, new AtomicInteger(),
                429, new AtomicInteger()));
        Semaphore inFlight = new Semaphore(64);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            inFlight.acquire();
            URI uri = bases.get(i % 2).resolve("/v1/projects/" + project + "/llm/openai/v1/chat/completions");
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            all.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle((r, e) -> {
                inFlight.release();
                int status = e != null ? -1 : r.statusCode();
                statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                return null;
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(5, java.util.concurrent.TimeUnit.MINUTES);
        return statuses;
    }
}
