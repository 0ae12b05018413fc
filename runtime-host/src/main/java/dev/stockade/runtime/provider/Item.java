package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;

/** One element of a conversation as providers see it, independent of any wire format. */
public sealed interface Item {
    /** Text the user (or a channel on the user's behalf) sent. */
    record UserText(String text) implements Item {
    }

    /** Text the model wrote. */
    record AssistantText(String text) implements Item {
    }

    /** A tool the model asked to call. */
    record ToolCall(String id, String name, JsonNode input) implements Item {
    }

    /** The result of a tool call, sent back to the model. */
    record ToolResult(String id, String output, boolean error) implements Item {
    }
}
