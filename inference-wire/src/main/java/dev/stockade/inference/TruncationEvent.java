package dev.stockade.inference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * The provider-native error event the proxy writes to the client when the upstream stream ended without its
 * terminal event, before aborting the connection: SDKs treat a clean cut as success, so the stream must fail in
 * a way each SDK reports (research/sdk-behaviour.md). The message is fixed text and carries nothing upstream sent.
 */
public final class TruncationEvent {

    /** The message every injected event carries. */
    public static final String MESSAGE = "upstream stream ended before its final event";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TruncationEvent() {
    }

    /**
     * The error event for a stream of {@code format} as {@code reading} left it (a Responses event continues its
     * sequence numbers). Embeddings and realtime (a WebSocket) do not stream over HTTP and are refused.
     */
    public static byte[] bytes(WireFormat format, StreamReading reading) {
        return switch (format) {
            case ANTHROPIC_MESSAGES -> sse("error", anthropic());
            case OPENAI_CHAT -> sse(null, chat());
            case OPENAI_RESPONSES -> sse("error", responses(reading.lastSequence().orElse(-1) + 1));
            case BEDROCK_INVOKE, BEDROCK_CONVERSE -> exceptionFrame();
            case OPENAI_EMBEDDINGS -> throw new IllegalArgumentException("embeddings never stream");
            // A cut WebSocket is closed with a close code by the relay, not finished with bytes.
            case OPENAI_REALTIME -> throw new IllegalArgumentException("realtime does not stream over HTTP");
        };
    }

    private static ObjectNode anthropic() {
        ObjectNode event = MAPPER.createObjectNode().put("type", "error");
        event.putObject("error").put("type", "api_error").put("message", MESSAGE);
        return event;
    }

    /** openai-java and the Node SDK raise on a chunk whose top level is {@code error}. */
    private static ObjectNode chat() {
        ObjectNode event = MAPPER.createObjectNode();
        event.putObject("error").put("message", MESSAGE).put("type", "server_error").putNull("param")
                .putNull("code");
        return event;
    }

    private static ObjectNode responses(long sequence) {
        return MAPPER.createObjectNode().put("type", "error").put("code", "server_error").put("message", MESSAGE)
                .putNull("param").put("sequence_number", sequence);
    }

    /** The exception frame the AWS SDK turns into an {@code InternalServerException}. */
    private static byte[] exceptionFrame() {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":message-type", HeaderValue.fromString("exception"));
        headers.put(":exception-type", HeaderValue.fromString("internalServerException"));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        byte[] payload = json(MAPPER.createObjectNode().put("message", MESSAGE));
        var buffer = new Message(headers, payload).toByteBuffer();
        byte[] frame = new byte[buffer.remaining()];
        buffer.get(frame);
        return frame;
    }

    private static byte[] sse(String event, ObjectNode data) {
        String prefix = event == null ? "" : "event: " + event + "\n";
        return (prefix + "data: " + new String(json(data), StandardCharsets.UTF_8) + "\n\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] json(ObjectNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a fixed event could not be written", impossible);
        }
    }
}
