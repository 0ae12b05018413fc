package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * GPT through the OpenAI Responses API ({@code POST <base>/responses}, {@code stream: true}). Output
 * items come from {@code response.output_item.done}; the stream ends normally only with
 * {@code response.completed} (usage there); {@code response.failed}, {@code response.incomplete} and
 * {@code error} end the call with a clear error.
 */
public final class OpenAiResponses implements ChatModel {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ProviderHttp http;
    private final String base;
    private final String key;

    public OpenAiResponses(ProviderHttp http, String base, String key) {
        this.http = http;
        this.base = base;
        this.key = key;
    }

    @Override
    public ModelReply complete(ModelRequest req, Consumer<String> onText) throws ProviderException {
        if (key == null) {
            throw new ProviderException("no LLM credential is configured", 0, false);
        }
        InputStream in = http.post("chat", base + "/responses", Map.of("authorization", "Bearer " + key,
                "accept", "text/event-stream"), AnthropicMessages.bytes(body(req)));
        List<Item> items = new ArrayList<>();
        try (SseReader sse = new SseReader(in)) {
            SseEvent ev;
            while ((ev = sse.next()) != null) {
                if (ev.data().isEmpty() || ev.data().equals("[DONE]")) {
                    continue;
                }
                ModelReply done = apply(JSON.readTree(ev.data()), items, onText);
                if (done != null) {
                    return done;
                }
            }
        } catch (IOException e) {
            throw new ProviderException("the provider's stream was cut (" + e.getClass().getSimpleName() + ")",
                    0, false);
        }
        throw new ProviderException("the provider's stream was cut before response.completed", 0, false);
    }

    private static ModelReply apply(JsonNode ev, List<Item> items, Consumer<String> onText) throws ProviderException {
        switch (ev.path("type").asText()) {
            case "response.output_text.delta" -> onText.accept(ev.path("delta").asText());
            case "response.output_item.done" -> item(ev.path("item"), items);
            case "response.completed" -> {
                JsonNode u = ev.path("response").path("usage");
                boolean calls = items.stream().anyMatch(Item.ToolCall.class::isInstance);
                return new ModelReply(List.copyOf(items), calls ? "tool_use" : "end_turn",
                        u.path("input_tokens").asLong(), u.path("output_tokens").asLong());
            }
            case "response.failed" -> throw new ProviderException("the provider reported the response failed ("
                    + AnthropicStream.safeType(ev.path("response").path("error").path("code").asText("unknown"))
                    + ")", 0, false);
            case "response.incomplete" -> throw new ProviderException("the provider ended the response "
                    + "incomplete (" + AnthropicStream.safeType(ev.path("response").path("incomplete_details")
                    .path("reason").asText("unknown")) + ")", 0, false);
            case "error" -> throw new ProviderException("the provider reported a stream error ("
                    + AnthropicStream.safeType(ev.path("code").asText("unknown")) + ")", 0, false);
            default -> {
                // created, in_progress, content_part and argument deltas: the done events carry the result
            }
        }
        return null;
    }

    private static void item(JsonNode item, List<Item> items) throws ProviderException {
        String type = item.path("type").asText();
        if (type.equals("message")) {
            StringBuilder sb = new StringBuilder();
            item.path("content").forEach(c -> {
                if (c.path("type").asText().equals("output_text")) {
                    sb.append(c.path("text").asText());
                }
            });
            items.add(new Item.AssistantText(sb.toString()));
        } else if (type.equals("function_call")) {
            try {
                String args = item.path("arguments").asText("{}");
                items.add(new Item.ToolCall(item.path("call_id").asText(), item.path("name").asText(),
                        JSON.readTree(args.isEmpty() ? "{}" : args)));
            } catch (IOException e) {
                throw new ProviderException("the provider sent malformed tool arguments", 0, false);
            }
        }
    }

    private static ObjectNode body(ModelRequest req) {
        ObjectNode b = JSON.createObjectNode();
        b.put("model", req.model());
        b.put("stream", true);
        b.put("store", false);
        b.put("max_output_tokens", req.maxTokens());
        if (req.system() != null && !req.system().isEmpty()) {
            b.put("instructions", req.system());
        }
        ArrayNode input = b.putArray("input");
        for (Item it : req.items()) {
            if (it instanceof Item.UserText u) {
                input.addObject().put("role", "user").put("content", u.text());
            } else if (it instanceof Item.AssistantText a) {
                input.addObject().put("role", "assistant").put("content", a.text());
            } else if (it instanceof Item.ToolCall c) {
                input.addObject().put("type", "function_call").put("call_id", c.id()).put("name", c.name())
                        .put("arguments", c.input().toString());
            } else if (it instanceof Item.ToolResult r) {
                input.addObject().put("type", "function_call_output").put("call_id", r.id()).put("output", r.output());
            }
        }
        if (!req.tools().isEmpty()) {
            ArrayNode tools = b.putArray("tools");
            for (ToolSpec t : req.tools()) {
                tools.addObject().put("type", "function").put("name", t.name()).put("description", t.description())
                        .set("parameters", t.inputSchema());
            }
        }
        return b;
    }
}
