package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Folds Anthropic Messages stream events (from SSE or from Bedrock event-stream chunks) into a reply.
 * Usage: input and cache tokens from {@code message_start}, output tokens from the cumulative
 * {@code message_delta}. Only {@code message_stop} ends a stream normally.
 */
final class AnthropicStream {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Consumer<String> onText;
    private final List<Item> items = new ArrayList<>();
    private StringBuilder text;
    private String toolId;
    private String toolName;
    private StringBuilder toolJson;
    private String stopReason;
    private long input;
    private long output;
    private boolean stopped;

    AnthropicStream(Consumer<String> onText) {
        this.onText = onText;
    }

    /** Applies one event; throws on an {@code error} event. */
    void accept(JsonNode ev) throws ProviderException {
        switch (ev.path("type").asText()) {
            case "message_start" -> {
                JsonNode u = ev.path("message").path("usage");
                input = u.path("input_tokens").asLong() + u.path("cache_read_input_tokens").asLong()
                        + u.path("cache_creation_input_tokens").asLong();
                output = u.path("output_tokens").asLong();
            }
            case "content_block_start" -> start(ev.path("content_block"));
            case "content_block_delta" -> delta(ev.path("delta"));
            case "content_block_stop" -> stop();
            case "message_delta" -> {
                if (ev.path("delta").hasNonNull("stop_reason")) {
                    stopReason = ev.path("delta").path("stop_reason").asText();
                }
                output = ev.path("usage").path("output_tokens").asLong(output);
            }
            case "message_stop" -> stopped = true;
            case "error" -> throw new ProviderException("the provider reported a stream error ("
                    + safeType(ev.path("error").path("type").asText("unknown")) + ")", 0,
                    ev.path("error").path("type").asText().equals("overloaded_error"));
            default -> {
                // ping and future event types carry nothing we need
            }
        }
    }

    private void start(JsonNode block) {
        if (block.path("type").asText().equals("tool_use")) {
            toolId = block.path("id").asText();
            toolName = block.path("name").asText();
            toolJson = new StringBuilder();
        } else if (block.path("type").asText().equals("text")) {
            text = new StringBuilder(block.path("text").asText(""));
        }
    }

    private void delta(JsonNode d) {
        String type = d.path("type").asText();
        if (type.equals("text_delta") && text != null) {
            String t = d.path("text").asText();
            text.append(t);
            onText.accept(t);
        } else if (type.equals("input_json_delta") && toolJson != null) {
            toolJson.append(d.path("partial_json").asText());
        }
    }

    private void stop() throws ProviderException {
        if (text != null) {
            items.add(new Item.AssistantText(text.toString()));
            text = null;
        } else if (toolJson != null) {
            JsonNode input;
            try {
                input = toolJson.length() == 0 ? JSON.createObjectNode() : JSON.readTree(toolJson.toString());
            } catch (IOException e) {
                throw new ProviderException("the provider sent malformed tool input", 0, false);
            }
            items.add(new Item.ToolCall(toolId, toolName, input));
            toolJson = null;
        }
    }

    /** The reply; a stream without {@code message_stop} was cut. */
    ModelReply finish() throws ProviderException {
        if (!stopped) {
            throw new ProviderException("the provider's stream was cut before message_stop", 0, false);
        }
        return new ModelReply(List.copyOf(items), stopReason, input, output);
    }

    static String safeType(String t) {
        return t.matches("[a-z_]{1,40}") ? t : "unknown";
    }
}
