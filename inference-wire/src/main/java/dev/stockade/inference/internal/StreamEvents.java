package dev.stockade.inference.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * Reads the events of one stream in its wire format's terms: where usage is, which event ends the stream
 * normally, which one reports an error (see research/inference-wire-formats.md). Not thread-safe.
 */
public final class StreamEvents {

    private final WireFormat format;
    private final ObjectMapper mapper;
    private final UsageTally tally = new UsageTally();
    private Optional<String> model = Optional.empty();
    private boolean terminal;
    private boolean error;
    private boolean malformed;
    private OptionalLong lastSequence = OptionalLong.empty();

    public StreamEvents(WireFormat format, ObjectMapper mapper) {
        this.format = format;
        this.mapper = mapper;
    }

    public UsageTally tally() {
        return tally;
    }

    public Optional<String> model() {
        return model;
    }

    public boolean terminal() {
        return terminal;
    }

    public boolean error() {
        return error;
    }

    public boolean malformed() {
        return malformed;
    }

    public OptionalLong lastSequence() {
        return lastSequence;
    }

    /** One server-sent event. */
    public void sse(String name, String data) {
        if (format == WireFormat.OPENAI_CHAT && data.equals("[DONE]")) {
            terminal = true;
            return;
        }
        if (format == WireFormat.OPENAI_RESPONSES) {
            OptionalLong sequence = SkimmedEvent.sequenceNumber(data);
            lastSequence = sequence.isPresent() ? sequence : lastSequence;
        }
        if (!SkimmedEvent.mayMatter(format, name, data, model.isPresent())) {
            return;
        }
        Optional<JsonNode> event = parse(data.getBytes(StandardCharsets.UTF_8));
        if (event.isEmpty()) {
            error |= name.equals("error");
            return;
        }
        switch (format) {
            case OPENAI_CHAT -> chat(event.get());
            case OPENAI_RESPONSES -> responses(name, event.get());
            default -> anthropic(name, event.get());
        }
    }

    /** One AWS event-stream frame. */
    public void frame(Message message) {
        Map<String, HeaderValue> headers = message.getHeaders();
        String messageType = header(headers, ":message-type");
        if (!messageType.equals("event")) {
            error = true; // `exception` or `error`
            return;
        }
        Optional<JsonNode> payload = parse(message.getPayload());
        if (payload.isEmpty()) {
            return;
        }
        String eventType = header(headers, ":event-type");
        if (format == WireFormat.BEDROCK_CONVERSE) {
            converse(eventType, payload.get());
        } else if (eventType.equals("chunk")) {
            bedrockChunk(payload.get());
        }
    }

    private void anthropic(String name, JsonNode event) {
        String type = event.path("type").asText(name);
        switch (type) {
            case "message_start" -> {
                JsonNode message = event.path("message");
                model = Json.text(message, "model").or(() -> model);
                tally.anthropic(message.get("usage"));
            }
            case "message_delta" -> tally.anthropic(event.get("usage"));
            case "message_stop" -> terminal = true;
            case "error" -> error = true;
            default -> { }
        }
    }

    private void chat(JsonNode chunk) {
        if (chunk.has("error")) {
            error = true;
            return;
        }
        model = Json.text(chunk, "model").or(() -> model);
        JsonNode usage = chunk.get("usage");
        if (usage != null && usage.isObject()) {
            tally.openAiChat(usage);
        }
    }

    private void responses(String name, JsonNode event) {
        String type = event.path("type").asText(name);
        JsonNode response = event.path("response");
        model = Json.text(response, "model").or(() -> model);
        switch (type) {
            case "response.completed", "response.incomplete", "response.failed" -> {
                terminal = true;
                tally.openAiResponses(response.get("usage"));
                tally.openAiResponsesOutput(response.get("output"));
            }
            case "error" -> error = true;
            default -> { }
        }
    }

    /** InvokeModelWithResponseStream: {@code {"bytes": base64 model event}}; the last carries Bedrock's counts and ends it. */
    private void bedrockChunk(JsonNode chunk) {
        byte[] inner;
        try {
            inner = Base64.getDecoder().decode(chunk.path("bytes").asText(""));
        } catch (IllegalArgumentException notBase64) {
            malformed = true;
            return;
        }
        Optional<JsonNode> event = parse(inner);
        if (event.isEmpty()) {
            return;
        }
        anthropic("", event.get());
        JsonNode metrics = event.get().get("amazon-bedrock-invocationMetrics");
        if (metrics != null && metrics.isObject()) {
            // Bedrock adds its metrics to the final chunk of every model's stream, not only Anthropic's.
            terminal = true;
            tally.bedrockCounts(Json.count(metrics.get("inputTokenCount")),
                    Json.count(metrics.get("outputTokenCount")),
                    Json.count(metrics.get("cacheReadInputTokenCount")),
                    Json.count(metrics.get("cacheWriteInputTokenCount")));
        }
    }

    private void converse(String eventType, JsonNode payload) {
        if (eventType.equals("metadata")) {
            terminal = true;
            tally.converse(payload.get("usage"));
        }
    }

    private Optional<JsonNode> parse(byte[] bytes) {
        Optional<JsonNode> node = Json.object(mapper, bytes, 0, bytes.length);
        malformed |= node.isEmpty();
        return node;
    }

    private static String header(Map<String, HeaderValue> headers, String name) {
        HeaderValue value = headers.get(name);
        try {
            return value == null ? "" : value.getString();
        } catch (UnsupportedOperationException | IllegalStateException notAString) {
            return "";
        }
    }
}
