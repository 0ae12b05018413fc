package dev.stockade.inference;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * Streams as providers send them: SSE transcripts in test resources (shaped after the providers' documented
 * examples, see research/inference-wire-formats.md) and Bedrock event-stream frames encoded with the AWS library.
 */
final class Fixtures {

    static final String BEDROCK_STOP_WITH_METRICS = "{\"type\":\"message_stop\",\"amazon-bedrock-invocationMetrics\":"
            + "{\"inputTokenCount\":25,\"outputTokenCount\":15,\"invocationLatency\":812,\"firstByteLatency\":300,"
            + "\"cacheReadInputTokenCount\":2000,\"cacheWriteInputTokenCount\":1000}}";

    /** The Anthropic events of a Bedrock InvokeModelWithResponseStream answer, in order. */
    static final List<String> BEDROCK_INVOKE_EVENTS = List.of(
            "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_bdrk_01\",\"type\":\"message\",\"role\":\"assistant\","
                    + "\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[],\"stop_reason\":null,"
                    + "\"usage\":{\"input_tokens\":25,\"cache_creation_input_tokens\":1000,"
                    + "\"cache_read_input_tokens\":2000,\"output_tokens\":1}}}",
            "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hej 🌍\"}}",
            "{\"type\":\"content_block_stop\",\"index\":0}",
            "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":15}}",
            BEDROCK_STOP_WITH_METRICS);

    private Fixtures() {
    }

    static byte[] resource(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/dev/stockade/inference/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] crlf(byte[] lf) {
        return new String(lf, StandardCharsets.UTF_8).replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] invokeStream(List<String> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String event : events) {
            String b64 = Base64.getEncoder().encodeToString(event.getBytes(StandardCharsets.UTF_8));
            out.writeBytes(eventFrame("chunk", "{\"bytes\":\"" + b64 + "\",\"p\":\"abcdefghijklmnopqrstuvwxyzABCDEF\"}"));
        }
        return out.toByteArray();
    }

    static byte[] converseStream(boolean withMetadata) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(eventFrame("messageStart", "{\"p\":\"abcd\",\"role\":\"assistant\"}"));
        out.writeBytes(eventFrame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Ciao 🍕\"},\"p\":\"ab\"}"));
        out.writeBytes(eventFrame("contentBlockStop", "{\"contentBlockIndex\":0,\"p\":\"abc\"}"));
        out.writeBytes(eventFrame("messageStop", "{\"p\":\"abcdef\",\"stopReason\":\"end_turn\"}"));
        if (withMetadata) {
            out.writeBytes(eventFrame("metadata", "{\"metrics\":{\"latencyMs\":312},\"p\":\"ab\",\"usage\":"
                    + "{\"inputTokens\":30,\"outputTokens\":12,\"totalTokens\":47,\"cacheReadInputTokens\":5,"
                    + "\"cacheWriteInputTokens\":0}}"));
        }
        return out.toByteArray();
    }

    static byte[] eventFrame(String eventType, String json) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString(eventType));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        return encode(new Message(headers, json.getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] exceptionFrame(String exceptionType, String json) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":exception-type", HeaderValue.fromString(exceptionType));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("exception"));
        return encode(new Message(headers, json.getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] encode(Message message) {
        ByteBuffer buffer = message.toByteBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
