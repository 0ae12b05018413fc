package dev.stockade.runtime.provider;

import java.util.List;

/**
 * A completed model call.
 *
 * @param items assistant text and tool calls in the order the model produced them
 * @param inputTokens prompt tokens the provider reported (cache reads and writes included)
 */
public record ModelReply(List<Item> items, String stopReason, long inputTokens, long outputTokens) {
    /** The tool calls of this reply. */
    public List<Item.ToolCall> toolCalls() {
        return items.stream().filter(Item.ToolCall.class::isInstance).map(Item.ToolCall.class::cast).toList();
    }

    /** The reply's text, steps joined by blank lines. */
    public String text() {
        return String.join("\n\n", items.stream().filter(Item.AssistantText.class::isInstance)
                .map(i -> ((Item.AssistantText) i).text()).toList());
    }
}
