package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Claude through the Anthropic Messages API. Two transports: Server-Sent Events at
 * {@code <base>/v1/messages} (Azure Foundry, Bedrock Mantle, and any gateway speaking Messages) with
 * the key as {@code x-api-key}; and the Bedrock runtime's {@code invoke-with-response-stream}, whose
 * AWS event-stream chunks carry the same Messages events, with the Bedrock API key as a bearer token.
 */
public final class AnthropicMessages implements ChatModel {
    /** The Messages API version sent on the SSE transport. */
    public static final String VERSION = "2023-06-01";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ProviderHttp http;
    private final String base;
    private final String key;
    private final boolean bedrockRuntime;
    private final AwsSigV4 sigv4;

    /**
     * @param base the URL before {@code /v1/messages} (SSE) or {@code /model/...} (Bedrock runtime)
     * @param bedrockRuntime whether to use the Bedrock runtime's event-stream transport
     */
    public AnthropicMessages(ProviderHttp http, String base, String key, boolean bedrockRuntime) {
        this(http, base, key, bedrockRuntime, null);
    }

    /** As above; on the Bedrock runtime without a key, requests are signed with {@code sigv4} when given. */
    public AnthropicMessages(ProviderHttp http, String base, String key, boolean bedrockRuntime, AwsSigV4 sigv4) {
        this.http = http;
        this.base = base;
        this.key = key;
        this.bedrockRuntime = bedrockRuntime;
        this.sigv4 = bedrockRuntime ? sigv4 : null;
    }

    @Override
    public ModelReply complete(ModelRequest req, Consumer<String> onText) throws ProviderException {
        if (base == null) {
            throw new ProviderException("no chat endpoint is configured", 0, false);
        }
        if (key == null && sigv4 == null) {
            throw new ProviderException("no LLM credential is configured", 0, false);
        }
        AnthropicStream stream = new AnthropicStream(onText);
        if (bedrockRuntime) {
            String url = base + "/model/" + java.net.URLEncoder.encode(req.model(),
                    java.nio.charset.StandardCharsets.UTF_8) + "/invoke-with-response-stream";
            byte[] payload = body(req, true);
            Map<String, String> headers = new java.util.LinkedHashMap<>(Map.of("accept",
                    "application/vnd.amazon.eventstream"));
            if (key != null) {
                headers.put("authorization", "Bearer " + key);
            } else {
                headers.putAll(sigv4.sign("POST", url, headers, payload));
            }
            InputStream in = http.post("chat", url, headers, payload);
            BedrockEventStream.read(in, stream);
        } else {
            InputStream in = http.post("chat", base + "/v1/messages", Map.of("x-api-key", key,
                    "anthropic-version", VERSION, "accept", "text/event-stream"), body(req, false));
            readSse(in, stream);
        }
        return stream.finish();
    }

    private static void readSse(InputStream in, AnthropicStream stream) throws ProviderException {
        try (SseReader sse = new SseReader(in)) {
            SseEvent ev;
            while ((ev = sse.next()) != null) {
                if (!ev.data().isEmpty()) {
                    stream.accept(AnthropicEvent.parse(ev.data()));
                }
            }
        } catch (IOException e) {
            throw new ProviderException("the provider's stream was cut (" + e.getClass().getSimpleName() + ")",
                    0, false);
        }
    }

    static byte[] bytes(JsonNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The request body, written field by field: a body is built for every model call of every run, and a JSON tree
     * serialised afterwards allocated about 60 % more (docs/benchmarks.md, 2026-11-28). The Bedrock runtime names the
     * API version in the body and the model in the URL; the SSE transport names the model and asks for a stream.
     */
    static byte[] body(ModelRequest req, boolean bedrock) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("max_tokens", req.maxTokens());
            if (req.system() != null && !req.system().isEmpty()) {
                g.writeStringField("system", req.system());
            }
            g.writeFieldName("messages");
            messages(g, req.items());
            if (!req.tools().isEmpty()) {
                g.writeArrayFieldStart("tools");
                for (ToolSpec t : req.tools()) {
                    g.writeStartObject();
                    g.writeStringField("name", t.name());
                    g.writeStringField("description", t.description());
                    g.writeFieldName("input_schema");
                    g.writeTree(t.inputSchema());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            if (bedrock) {
                g.writeStringField("anthropic_version", "bedrock-2023-05-31");
            } else {
                g.writeStringField("model", req.model());
                g.writeBooleanField("stream", true);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException(e); // writing to memory
        }
        return out.toByteArray();
    }

    /** Writes items as alternating user/assistant messages of content blocks. */
    private static void messages(JsonGenerator g, List<Item> items) throws IOException {
        g.writeStartArray();
        String role = null;
        for (Item it : items) {
            String r = it instanceof Item.UserText || it instanceof Item.ToolResult ? "user" : "assistant";
            if (!r.equals(role)) {
                if (role != null) {
                    g.writeEndArray();
                    g.writeEndObject();
                }
                role = r;
                g.writeStartObject();
                g.writeStringField("role", r);
                g.writeArrayFieldStart("content");
            }
            block(g, it);
        }
        if (role != null) {
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void block(JsonGenerator g, Item it) throws IOException {
        g.writeStartObject();
        if (it instanceof Item.UserText u) {
            text(g, u.text());
        } else if (it instanceof Item.AssistantText a) {
            text(g, a.text());
        } else if (it instanceof Item.ToolCall c) {
            g.writeStringField("type", "tool_use");
            g.writeStringField("id", c.id());
            g.writeStringField("name", c.name());
            g.writeFieldName("input");
            g.writeTree(c.input());
        } else if (it instanceof Item.ToolResult r) {
            g.writeStringField("type", "tool_result");
            g.writeStringField("tool_use_id", r.id());
            g.writeStringField("content", r.output());
            g.writeBooleanField("is_error", r.error());
        }
        g.writeEndObject();
    }

    private static void text(JsonGenerator g, String text) throws IOException {
        g.writeStringField("type", "text");
        g.writeStringField("text", text);
    }
}
