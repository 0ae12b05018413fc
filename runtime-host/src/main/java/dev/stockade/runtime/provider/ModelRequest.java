package dev.stockade.runtime.provider;

import java.util.List;

/** One model call: the model id, the system prompt, the conversation and the tools offered. */
public record ModelRequest(String model, String system, List<Item> items, List<ToolSpec> tools, int maxTokens) {
}
