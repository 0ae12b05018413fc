package dev.stockade.api.kernel.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** Builds the JSON Schema of a tool's arguments: an object with typed, described properties. */
public final class Schema {
    private final ObjectNode root = JsonNodeFactory.instance.objectNode().put("type", "object");
    private final ObjectNode properties = root.putObject("properties");

    private Schema() {
    }

    public static Schema object() {
        return new Schema();
    }

    public Schema uuid(String name, String description) {
        properties.putObject(name).put("type", "string").put("format", "uuid").put("description", description);
        return this;
    }

    public Schema string(String name, String description) {
        properties.putObject(name).put("type", "string").put("description", description);
        return this;
    }

    public Schema integer(String name, String description) {
        properties.putObject(name).put("type", "integer").put("description", description);
        return this;
    }

    public Schema bool(String name, String description) {
        properties.putObject(name).put("type", "boolean").put("description", description);
        return this;
    }

    public Schema object(String name, String description) {
        properties.putObject(name).put("type", "object").put("description", description);
        return this;
    }

    public Schema oneOf(String name, String description, String... values) {
        ObjectNode p = properties.putObject(name).put("type", "string").put("description", description);
        for (String v : values) {
            p.withArray("enum").add(v);
        }
        return this;
    }

    public ObjectNode required(String... names) {
        for (String n : names) {
            root.withArray("required").add(n);
        }
        root.put("additionalProperties", false);
        return root;
    }
}
