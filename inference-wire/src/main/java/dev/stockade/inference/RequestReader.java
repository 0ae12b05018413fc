package dev.stockade.inference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.inference.internal.ContentScan;
import dev.stockade.inference.internal.Json;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a request body before it is forwarded, so the proxy can reserve the call's maximum cost and make a Chat
 * Completions stream report its usage. A body it cannot bound is refused with a {@link WireException}.
 * Thread-safe.
 */
public final class RequestReader {

    /**
     * Tokens a provider adds to the prompt that the body does not carry (chat template markers, the tool-use
     * system prompt Anthropic adds, about 350 tokens): a fixed allowance on top of the body's bytes.
     */
    public static final long HIDDEN_PROMPT_ALLOWANCE = 4_096;

    private final WireLimits limits;
    private final ObjectMapper mapper;

    public RequestReader(WireLimits limits) {
        this.limits = limits;
        this.mapper = Json.mapper(limits.maxBodyBytes());
    }

    private static final String NO_REQUEST_BODY = "realtime has no request body: its usage arrives in server events";

    /**
     * Reads the shape of a request to {@code route}. A {@link WireFormat#OPENAI_REALTIME} route is refused with
     * {@link IllegalArgumentException}: a WebSocket session has no body to read (no path routes there).
     */
    public RequestShape read(WireRoute route, byte[] body) throws WireException {
        if (route.format() == WireFormat.OPENAI_REALTIME) {
            throw new IllegalArgumentException(NO_REQUEST_BODY);
        }
        JsonNode root = parse(body);
        WireFormat format = route.format();
        Optional<String> model = route.pathModel().or(() -> Json.text(root, "model"));
        boolean stream = route.pathStreams() || (!format.eventStreamFramed() && flag(root, "stream"));
        OptionalLong output = outputBound(format, root);
        long inputBound = body.length + HIDDEN_PROMPT_ALLOWANCE;
        return new RequestShape(format, model, stream, output, inputBound, ContentScan.pullsUnboundedInput(root));
    }

    /**
     * The body to forward for a Chat Completions request: a stream gets {@code stream_options.include_usage=true}
     * when the client did not set it, because without it the stream carries no usage at all.
     */
    public ForwardBody withStreamUsage(byte[] body) throws WireException {
        JsonNode root = parse(body);
        JsonNode options = root.get("stream_options");
        boolean asked = options != null && options.path("include_usage").isBoolean()
                && options.get("include_usage").booleanValue();
        if (!flag(root, "stream") || asked) {
            return new ForwardBody(body, asked, false);
        }
        if (options != null && !options.isNull() && !options.isObject()) {
            throw new WireException(WireProblem.INVALID_FIELD, "`stream_options` must be an object");
        }
        ObjectNode rewritten = ((ObjectNode) root).deepCopy();
        ObjectNode streamOptions = options != null && options.isObject()
                ? (ObjectNode) rewritten.get("stream_options") : rewritten.putObject("stream_options");
        streamOptions.put("include_usage", true);
        try {
            return new ForwardBody(mapper.writeValueAsBytes(rewritten), false, true);
        } catch (JsonProcessingException unexpected) {
            throw new WireException(WireProblem.MALFORMED_JSON, "body could not be written back");
        }
    }

    private JsonNode parse(byte[] body) throws WireException {
        if (body == null || body.length == 0) {
            throw new WireException(WireProblem.MALFORMED_JSON, "body is empty, expected a JSON object");
        }
        if (body.length > limits.maxBodyBytes()) {
            throw new WireException(WireProblem.BODY_TOO_LARGE,
                    "body of " + body.length + " bytes exceeds the limit of " + limits.maxBodyBytes() + " bytes");
        }
        try {
            JsonNode root = mapper.readTree(body);
            if (root == null || !root.isObject()) {
                throw new WireException(WireProblem.MALFORMED_JSON, "body must be a JSON object");
            }
            return root;
        } catch (IOException malformed) {
            // Jackson's message quotes the input; only its location is kept.
            String where = malformed instanceof JsonProcessingException jpe && jpe.getLocation() != null
                    ? " at byte " + jpe.getLocation().getByteOffset() : "";
            throw new WireException(WireProblem.MALFORMED_JSON, "body is not valid JSON" + where);
        }
    }

    private static boolean flag(JsonNode root, String field) throws WireException {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new WireException(WireProblem.INVALID_FIELD, "`" + field + "` must be a boolean");
        }
        return value.booleanValue();
    }

    private static OptionalLong outputBound(WireFormat format, JsonNode root) throws WireException {
        return switch (format) {
            case ANTHROPIC_MESSAGES, BEDROCK_INVOKE -> bound(root, "max_tokens");
            case OPENAI_RESPONSES -> bound(root, "max_output_tokens");
            case OPENAI_EMBEDDINGS -> OptionalLong.of(0);
            case BEDROCK_CONVERSE -> bound(root.path("inferenceConfig"), "maxTokens");
            case OPENAI_CHAT -> chatBound(root);
            case OPENAI_REALTIME -> throw new IllegalArgumentException(NO_REQUEST_BODY);
        };
    }

    /** Chat takes the larger of the two spellings (either may be honoured) for each of {@code n} choices. */
    private static OptionalLong chatBound(JsonNode root) throws WireException {
        OptionalLong current = bound(root, "max_completion_tokens");
        OptionalLong legacy = bound(root, "max_tokens");
        if (current.isEmpty() && legacy.isEmpty()) {
            return OptionalLong.empty();
        }
        long perChoice = Math.max(current.orElse(0), legacy.orElse(0));
        long choices = bound(root, "n").orElse(1);
        long total = perChoice * Math.max(1, choices);
        // A product past a long only comes from absurd inputs; saturating keeps the reservation maximal.
        boolean overflowed = perChoice != 0 && total / perChoice != Math.max(1, choices);
        return OptionalLong.of(overflowed ? Long.MAX_VALUE : total);
    }

    private static OptionalLong bound(JsonNode parent, String field) throws WireException {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull() || value.isMissingNode()) {
            return OptionalLong.empty();
        }
        OptionalLong count = Json.count(value);
        if (count.isEmpty()) {
            throw new WireException(WireProblem.INVALID_FIELD, "`" + field + "` must be a non-negative integer");
        }
        return count;
    }
}
