package dev.stockade.api.inference;

import dev.stockade.api.kernel.config.InferenceConfig;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hc.core5.http.HttpRequest;

/**
 * Where a call goes upstream and how it is authenticated there. OpenAI-format routes address the backend's
 * {@code /v1} API whether or not the SDK's base URL ended in {@code /v1}; Anthropic-format routes keep the SDK's
 * {@code v1/messages}. The caller's own credential headers never cross: the backend gets the key chosen by
 * {@link InferenceKeys}.
 */
final class Upstreams {
    /** Request headers that cross to the backend; everything else (cookies, the caller's token) stays here. */
    static final Set<String> REQUEST_HEADERS = Set.of("content-type", "accept", "anthropic-version", "anthropic-beta",
            "openai-beta", "user-agent", "idempotency-key", "x-amzn-bedrock-trace", "x-amzn-bedrock-guardrailidentifier",
            "x-amzn-bedrock-guardrailversion", "x-amzn-bedrock-performanceconfig-latency");
    /** Response headers that come back, exactly or by prefix: content type, request ids, rate-limit and retry hints. */
    static final Set<String> RESPONSE_HEADERS = Set.of("content-type", "request-id", "x-request-id",
            "x-amzn-requestid", "x-amzn-errortype", "retry-after", "retry-after-ms", "x-should-retry",
            "openai-processing-ms", "x-amzn-bedrock-input-token-count", "x-amzn-bedrock-output-token-count",
            "x-amzn-bedrock-invocation-latency", "x-amzn-bedrock-cache-read-input-token-count",
            "x-amzn-bedrock-cache-write-input-token-count", "x-amzn-bedrock-content-type");
    private static final List<String> RESPONSE_PREFIXES = List.of("x-ratelimit-", "anthropic-ratelimit-");

    private Upstreams() {
    }

    /** The backend URL of {@code route}, with the caller's query string. */
    static URI url(InferenceConfig config, LlmRoute route, String rawQuery) {
        String base = stripSlash(config.backend(route.provider()).baseUrl());
        if (route.region() != null) {
            base = base.replace("{region}", route.region());
        }
        String path = switch (route.family()) {
            case OPENAI -> openaiPath(route);
            case ANTHROPIC -> anthropicPrefix(route) + "/" + route.tail();
            case BEDROCK -> "/" + route.tail();
        };
        return URI.create(base + path + (rawQuery == null || rawQuery.isEmpty() ? "" : "?" + rawQuery));
    }

    /**
     * Sets the backend's credential header for {@code key}; a Bedrock call without a key is signed with SigV4 for
     * the upstream host, so this runs after the body and every other header are set.
     */
    static void authorize(HttpRequest out, LlmRoute route, InferenceKeys.UpstreamKey key) {
        if (key.source() == InferenceKeys.Source.AMBIENT) {
            // INVARIANT: InferenceKeys hands out ambient keys for the Bedrock runtime only, always with credentials
            BedrockSigV4.sign(out, route.region(), key.aws(), Clock.systemUTC());
            return;
        }
        credential(route, key).forEach(out::setHeader);
        if (route.family() == LlmRoute.Family.ANTHROPIC && !out.containsHeader("anthropic-version")) {
            out.setHeader("anthropic-version", "2023-06-01");
        }
    }

    /** The header that carries {@code key} to the route's backend (not for ambient keys: those sign the request). */
    static Map<String, String> credential(LlmRoute route, InferenceKeys.UpstreamKey key) {
        return switch (route.provider()) {
            case AZURE -> Map.of("api-key", key.secret());
            case BEDROCK, BEDROCK_MANTLE -> Map.of("Authorization", "Bearer " + key.secret());
            default -> route.family() == LlmRoute.Family.ANTHROPIC ? Map.of("x-api-key", key.secret())
                    : Map.of("Authorization", "Bearer " + key.secret());
        };
    }

    /** Whether an upstream response header may come back to the caller. */
    static boolean passesBack(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return RESPONSE_HEADERS.contains(n) || RESPONSE_PREFIXES.stream().anyMatch(n::startsWith);
    }

    /** Copies the headers that may cross from the caller's request. */
    static void copyRequestHeaders(Map<String, List<String>> from, HttpRequest out) {
        from.forEach((name, values) -> {
            if (REQUEST_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> out.addHeader(name, v));
            }
        });
        // the meter reads the body as it passes: ask for it unencoded (and never hand a client an encoding it did
        // not ask for: the AWS SDK decodes none)
        out.setHeader("Accept-Encoding", "identity");
    }

    /** {@code /v1/<call>}; on Azure under {@code /openai}, where the older deployment paths have no {@code v1}. */
    private static String openaiPath(LlmRoute route) {
        String tail = route.tail();
        if (route.provider() != dev.stockade.policy.model.Provider.AZURE) {
            return "/v1/" + stripV1(tail);
        }
        String rest = tail.startsWith("openai/") ? tail.substring("openai/".length()) : tail;
        return rest.startsWith("deployments/") ? "/openai/" + rest : "/openai/v1/" + stripV1(rest);
    }

    private static String anthropicPrefix(LlmRoute route) {
        return switch (route.provider()) {
            case AZURE, BEDROCK_MANTLE -> "/anthropic";
            default -> "";
        };
    }

    private static String stripV1(String tail) {
        return tail.startsWith("v1/") ? tail.substring(3) : tail;
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
