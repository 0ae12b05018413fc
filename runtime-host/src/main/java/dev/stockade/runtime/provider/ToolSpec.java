package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool offered to the model: name, description and JSON Schema of its input. */
public record ToolSpec(String name, String description, JsonNode inputSchema) {
}
