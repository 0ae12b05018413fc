package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the inference tests share: the installation's keys as named secrets, and reading calls back from the books. */
final class InferenceFixtures {
    private InferenceFixtures() {
    }

    /** The named secret {@code <dataDir>/secrets/<name>/apiKey} an {@code inference.<backend>.api-key-secret} names. */
    static void writeSecret(Path dataDir, String name, String value) {
        try {
            Path dir = dataDir.resolve("secrets").resolve(name);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("apiKey"), value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The organization's usage totals once at least {@code calls} calls are in the ledger. */
    /**
     * A platform serving the {@code bedrock} backend from {@code baseUrl} with the installation's key {@code key},
     * over h2c beside HTTP/1.1 (what the AWS SDK's default async client speaks to an {@code http://} endpoint).
     */
    static Map<String, String> bedrockPlatform(Path dataDir, String key, String baseUrl) {
        writeSecret(dataDir, "bedrock", key);
        Map<String, String> p = new HashMap<>();
        p.put("micronaut.server.http-version", "2.0");
        p.put("inference.allow-loopback-unsafe", "true");
        p.put("inference.bedrock.enabled", "true");
        p.put("inference.bedrock.base-url", baseUrl);
        p.put("inference.bedrock.api-key-secret", "bedrock");
        return p;
    }

    static JsonNode awaitUsage(Http http, String owner, String org, int calls) {
        String path = "/v1/orgs/" + org + "/usage-costs?groupBy=";
        Await.until(calls + " metered call(s) in the ledger", Await.BOUND,
                () -> http.get(path, owner).body().path("total").path("calls").asInt() >= calls);
        return http.get(path, owner).body().path("total");
    }

    /** The organization's inference audit entries with {@code outcome}, once there is one. */
    static List<JsonNode> awaitAudit(Http http, String owner, String org, String outcome) {
        String path = "/v1/orgs/" + org + "/audit-trail?kind=inference&outcome=" + outcome;
        Await.until("an inference audit entry (" + outcome + ")", Await.BOUND,
                () -> http.get(path, owner).body().path("items").size() > 0);
        List<JsonNode> out = new ArrayList<>();
        http.get(path, owner).body().path("items").forEach(out::add);
        return out;
    }

    /** Micro-USD as the API writes dollars. */
    static String usd(long micros) {
        return BigDecimal.valueOf(micros, 6).toPlainString();
    }
}
