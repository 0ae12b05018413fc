package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;
import software.amazon.eventstream.MessageDecoder;

/**
 * Reads the Bedrock runtime's {@code invoke-with-response-stream} body: AWS event-stream frames whose
 * {@code chunk} events carry {@code {"bytes": base64(Anthropic stream event)}}, and whose exception
 * frames ({@code :message-type=exception}) end the call with the named error.
 */
final class BedrockEventStream {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BedrockEventStream() {
    }

    static void read(InputStream in, AnthropicStream stream) throws ProviderException {
        List<Message> frames = new ArrayList<>();
        MessageDecoder decoder = new MessageDecoder(frames::add);
        byte[] buf = new byte[16 * 1024];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                decoder.feed(buf, 0, n);
                for (Message m : frames) {
                    frame(m, stream);
                }
                frames.clear();
            }
        } catch (IOException | RuntimeException e) {
            // RuntimeException: the decoder's checksum and length checks on a corrupt frame.
            throw new ProviderException("the provider's stream was cut (" + e.getClass().getSimpleName() + ")",
                    0, false);
        }
    }

    private static void frame(Message m, AnthropicStream stream) throws IOException, ProviderException {
        String type = header(m, ":message-type");
        if ("exception".equals(type) || "error".equals(type)) {
            String name = header(m, type.equals("exception") ? ":exception-type" : ":error-code");
            boolean retryable = name != null && (name.startsWith("throttling") || name.startsWith("serviceUnavailable")
                    || name.startsWith("internalServer"));
            throw new ProviderException("the provider reported a stream error ("
                    + AnthropicStream.safeType(name == null ? "unknown" : name.replaceAll("[A-Z]", "_$0")
                            .toLowerCase(java.util.Locale.ROOT)) + ")", 0, retryable);
        }
        if (!"chunk".equals(header(m, ":event-type"))) {
            return;
        }
        JsonNode payload = JSON.readTree(m.getPayload());
        byte[] event = Base64.getDecoder().decode(payload.path("bytes").asText());
        stream.accept(AnthropicEvent.parse(event));
    }

    private static String header(Message m, String name) {
        HeaderValue v = m.getHeaders().get(name);
        return v == null ? null : v.getString();
    }
}
