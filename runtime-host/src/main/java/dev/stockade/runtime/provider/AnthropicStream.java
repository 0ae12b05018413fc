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
    void accept(AnthropicEvent ev) throws ProviderException {
        switch (ev.type() == null ? "" : ev.type()) {
            case "message_start" -> {
                AnthropicEvent.Usage u = ev.message() == null ? null : ev.message().usage();
                if (u != null) {
                    input = AnthropicEvent.count(u.inputTokens(), 0) + AnthropicEvent.count(u.cacheReadInputTokens(), 0)
                            + AnthropicEvent.count(u.cacheCreationInputTokens(), 0);
                    output = AnthropicEvent.count(u.outputTokens(), 0);
                }
            }
            case "content_block_start" -> start(ev.contentBlock());
            case "content_block_delta" -> delta(ev.delta());
            case "content_block_stop" -> stop();
            case "message_delta" -> {
                if (ev.delta() != null && ev.delta().stopReason() != null) {
                    stopReason = ev.delta().stopReason();
                }
                output = ev.usage() == null ? output : AnthropicEvent.count(ev.usage().outputTokens(), output);
            }
            case "message_stop" -> stopped = true;
            case "error" -> {
                String type = ev.error() == null || ev.error().type() == null ? "" : ev.error().type();
                throw new ProviderException("the provider reported a stream error ("
                        + safeType(type.isEmpty() ? "unknown" : type) + ")", 0, type.equals("overloaded_error"));
            }
            default -> {
                // ping and future event types carry nothing we need
            }
        }
    }

    private void start(AnthropicEvent.Block block) {
        if (block == null) {
            return;
        }
        if ("tool_use".equals(block.type())) {
            toolId = block.id() == null ? "" : block.id();
            toolName = block.name() == null ? "" : block.name();
            toolJson = new StringBuilder();
        } else if ("text".equals(block.type())) {
            text = new StringBuilder(block.text() == null ? "" : block.text());
        }
    }

    private void delta(AnthropicEvent.Delta d) {
        if (d == null) {
            return;
        }
        if ("text_delta".equals(d.type()) && text != null) {
            String t = d.text() == null ? "" : d.text();
            text.append(t);
            onText.accept(t);
        } else if ("input_json_delta".equals(d.type()) && toolJson != null && d.partialJson() != null) {
            toolJson.append(d.partialJson());
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
