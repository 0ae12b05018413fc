package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
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
        ObjectNode body = body(req);
        AnthropicStream stream = new AnthropicStream(onText);
        if (bedrockRuntime) {
            body.put("anthropic_version", "bedrock-2023-05-31");
            String url = base + "/model/" + java.net.URLEncoder.encode(req.model(),
                    java.nio.charset.StandardCharsets.UTF_8) + "/invoke-with-response-stream";
            byte[] payload = bytes(body);
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
            body.put("model", req.model());
            body.put("stream", true);
            InputStream in = http.post("chat", base + "/v1/messages", Map.of("x-api-key", key,
                    "anthropic-version", VERSION, "accept", "text/event-stream"), bytes(body));
            readSse(in, stream);
        }
        return stream.finish();
    }

    private static void readSse(InputStream in, AnthropicStream stream) throws ProviderException {
        try (SseReader sse = new SseReader(in)) {
            SseEvent ev;
            while ((ev = sse.next()) != null) {
                if (!ev.data().isEmpty()) {
                    stream.accept(JSON.readTree(ev.data()));
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

    private static ObjectNode body(ModelRequest req) {
        ObjectNode b = JSON.createObjectNode();
        b.put("max_tokens", req.maxTokens());
        if (req.system() != null && !req.system().isEmpty()) {
            b.put("system", req.system());
        }
        b.set("messages", messages(req.items()));
        if (!req.tools().isEmpty()) {
            ArrayNode tools = b.putArray("tools");
            for (ToolSpec t : req.tools()) {
                tools.addObject().put("name", t.name()).put("description", t.description())
                        .set("input_schema", t.inputSchema());
            }
        }
        return b;
    }

    /** Maps items to alternating user/assistant messages of content blocks. */
    static ArrayNode messages(List<Item> items) {
        ArrayNode out = JSON.createArrayNode();
        ObjectNode current = null;
        for (Item it : items) {
            String role = it instanceof Item.UserText || it instanceof Item.ToolResult ? "user" : "assistant";
            if (current == null || !current.path("role").asText().equals(role)) {
                current = out.addObject().put("role", role);
                current.putArray("content");
            }
            ArrayNode content = (ArrayNode) current.get("content");
            if (it instanceof Item.UserText u) {
                content.addObject().put("type", "text").put("text", u.text());
            } else if (it instanceof Item.AssistantText a) {
                content.addObject().put("type", "text").put("text", a.text());
            } else if (it instanceof Item.ToolCall c) {
                content.addObject().put("type", "tool_use").put("id", c.id()).put("name", c.name())
                        .set("input", c.input());
            } else if (it instanceof Item.ToolResult r) {
                content.addObject().put("type", "tool_result").put("tool_use_id", r.id())
                        .put("content", r.output()).put("is_error", r.error());
            }
        }
        return out;
    }
}
