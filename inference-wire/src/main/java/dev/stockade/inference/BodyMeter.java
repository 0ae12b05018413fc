package dev.stockade.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.internal.Json;
import dev.stockade.inference.internal.UsageTally;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Meters a whole (non-streamed) answer from its JSON body and headers: Bedrock InvokeModel's token-count
 * headers win over the body (they cover every model, not only Anthropic bodies), and a backend's own cost
 * header is kept beside the counts. Thread-safe.
 */
public final class BodyMeter {

    static final String BEDROCK_INPUT = "X-Amzn-Bedrock-Input-Token-Count";
    static final String BEDROCK_OUTPUT = "X-Amzn-Bedrock-Output-Token-Count";
    static final String BEDROCK_CACHE_READ = "X-Amzn-Bedrock-Cache-Read-Input-Token-Count";
    static final String BEDROCK_CACHE_WRITE = "X-Amzn-Bedrock-Cache-Write-Input-Token-Count";
    static final String LITELLM_COST = "x-litellm-response-cost";

    private final WireLimits limits;
    private final ObjectMapper mapper;

    public BodyMeter(WireLimits limits) {
        this.limits = limits;
        this.mapper = Json.mapper(limits.maxBodyBytes());
    }

    /** Reads the usage of a whole answer in {@code format}. */
    public BodyReading read(WireFormat format, byte[] body, ResponseHeaders headers) {
        UsageTally tally = new UsageTally();
        Optional<WireProblem> problem = Optional.empty();
        Optional<JsonNode> root = Optional.empty();
        if (body.length > limits.maxBodyBytes()) {
            problem = Optional.of(WireProblem.BODY_TOO_LARGE);
        } else {
            root = Json.object(mapper, body, 0, body.length);
            problem = root.isEmpty() ? Optional.of(WireProblem.MALFORMED_JSON) : problem;
        }
        root.ifPresent(json -> bodyUsage(format, json, tally));
        if (format == WireFormat.BEDROCK_INVOKE || format == WireFormat.BEDROCK_CONVERSE) {
            tally.bedrockCounts(count(headers, BEDROCK_INPUT), count(headers, BEDROCK_OUTPUT),
                    count(headers, BEDROCK_CACHE_READ), count(headers, BEDROCK_CACHE_WRITE));
        }
        reportedCostUsd(headers).ifPresent(tally::reportedCostUsd);
        return new BodyReading(tally.usage(), root.flatMap(json -> Json.text(json, "model")), problem);
    }

    /**
     * The cost LiteLLM reports in {@code x-litellm-response-cost} (USD, decimal text), for a stream as well:
     * empty when absent or not a non-negative decimal.
     */
    public static Optional<BigDecimal> reportedCostUsd(ResponseHeaders headers) {
        Optional<String> value = headers.first(LITELLM_COST).map(String::trim).filter(v -> v.length() <= 40);
        try {
            return value.map(BigDecimal::new).filter(usd -> usd.signum() >= 0);
        } catch (NumberFormatException notADecimal) {
            return Optional.empty();
        }
    }

    /** The same cost in micro-USD rounded half-up, to add to a stream's usage with {@link TokenUsage#withReportedCost}. */
    public static OptionalLong reportedCostMicros(ResponseHeaders headers) {
        return reportedCostUsd(headers).map(UsageTally::micros).orElse(OptionalLong.empty());
    }

    private static void bodyUsage(WireFormat format, JsonNode root, UsageTally tally) {
        switch (format) {
            case ANTHROPIC_MESSAGES, BEDROCK_INVOKE -> tally.anthropic(root.get("usage"));
            case OPENAI_CHAT, OPENAI_EMBEDDINGS -> tally.openAiChat(root.get("usage"));
            case OPENAI_RESPONSES -> {
                tally.openAiResponses(root.get("usage"));
                tally.openAiResponsesOutput(root.get("output"));
            }
            case BEDROCK_CONVERSE -> tally.converse(root.get("usage"));
            // One server event as a body: only a `response.done` carries usage.
            case OPENAI_REALTIME -> tally.openAiRealtime(RealtimeUsage.usageNode(root));
        }
    }

    private static OptionalLong count(ResponseHeaders headers, String name) {
        Optional<String> value = headers.first(name).map(String::trim);
        if (value.isEmpty() || value.get().isEmpty() || value.get().length() > 18
                || !value.get().chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(value.get()));
    }
}
