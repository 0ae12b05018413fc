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

    /** The arguments of a tool that acts in one organization: {@code orgId}, then whatever else it takes. */
    public static Schema inOrg() {
        return object().uuid("orgId", "The organization");
    }

    /** The arguments of a tool that acts in one project: {@code projectId}, then whatever else it takes. */
    public static Schema inProject() {
        return object().uuid("projectId", "The project");
    }

    public Schema uuid(String name, String description) {
        properties.putObject(name).put("type", "string").put("format", "uuid").put("description", description);
        return this;
    }

    public Schema string(String name, String description) {
        return typed(name, "string", description);
    }

    public Schema integer(String name, String description) {
        return typed(name, "integer", description);
    }

    public Schema bool(String name, String description) {
        return typed(name, "boolean", description);
    }

    public Schema object(String name, String description) {
        return typed(name, "object", description);
    }

    public Schema oneOf(String name, String description, String... values) {
        ObjectNode p = properties.putObject(name).put("type", "string").put("description", description);
        for (String v : values) {
            p.withArray("enum").add(v);
        }
        return this;
    }

    /** A property of a JSON type with no further constraint. */
    private Schema typed(String name, String type, String description) {
        properties.putObject(name).put("type", type).put("description", description);
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
