package dev.stockade.cli.schema;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The fields of a sandbox file ({@code sandbox create -f}), as the platform reads a create body: the table below is
 * the one place the CLI declares them, and the sandbox schema is generated from it. Rules that depend on the
 * installation (the cpu and memory ceiling) or on stored rows (ids that exist) are the platform's alone.
 */
final class SandboxFileShape {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    // The platform's own patterns (api-host Quantities, SandboxBody), as anchored JSON Schema patterns.
    private static final String NAME = "^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$";
    private static final String CPU = "^([0-9]{1,6}(\\.[0-9]{1,3})?|[0-9]{1,9}m)$";
    private static final String MEMORY = "^[0-9]{1,12}(Ki|Mi|Gi|Ti|K|M|G|T)?$";
    private static final String DURATION = "^[0-9]{1,6}(m|h|d|w)$";
    private static final String UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

    /** One key of the sandbox file. */
    private record Field(String key, boolean required, String description, ObjectNode schema) {
    }

    private SandboxFileShape() {
    }

    private static List<Field> fields() {
        return List.of(
                new Field("name", true, "1 to 40 lowercase letters, digits and inner hyphens",
                        string(NAME)),
                new Field("cpu", true, "cores (`2`, `0.5`) or millicores (`500m`); at most the install's ceiling",
                        stringOrNumber(CPU)),
                new Field("memory", true, "bytes or with a suffix (`512Mi`, `2Gi`), at least 16Mi; at most the"
                        + " install's ceiling", stringOrNumber(MEMORY)),
                new Field("image", false, "the container image", NODES.objectNode().put("type", "string")),
                new Field("policies", false, "ids of project policies attached to the sandbox", ids(50)),
                new Field("credentials", false, "ids of project credentials the sandbox may use", ids(50)),
                new Field("ownCredentials", false, "credentials created and deleted with the sandbox",
                        nullable(ownCredentials())),
                new Field("policy", false, "the sandbox's embedded policy, or null",
                        nullable(NODES.objectNode().put("$ref", "#/definitions/policy"))),
                new Field("ports", false, "exposed ports, each with its own auth", nullable(ports())),
                new Field("autoStop", false, "stop an idle sandbox after this long (`30m`, `12h`, `7d`, `2w`)",
                        nullable(string(DURATION))),
                new Field("autoDelete", false, "delete a stopped sandbox and its volume after this long",
                        nullable(string(DURATION))),
                new Field("autoStart", false, "restart an auto-stopped sandbox on the next exec, terminal or"
                        + " private-port request", NODES.objectNode().put("type", "boolean")));
    }

    /** The body of the sandbox schema (an object schema); the embedded policy refers to {@code #/definitions/policy}. */
    static ObjectNode body() {
        ObjectNode out = NODES.objectNode().put("type", "object").put("additionalProperties", false);
        ArrayNode required = out.putArray("required");
        ObjectNode properties = out.putObject("properties");
        for (Field f : fields()) {
            if (f.required()) {
                required.add(f.key());
            }
            properties.set(f.key(), f.schema().put("description", f.description()));
        }
        return out;
    }

    private static ObjectNode string(String pattern) {
        return NODES.objectNode().put("type", "string").put("pattern", pattern);
    }

    private static ObjectNode stringOrNumber(String pattern) {
        ObjectNode out = NODES.objectNode();
        out.putArray("anyOf").add(string(pattern)).add(NODES.objectNode().put("type", "number").put("exclusiveMinimum", 0));
        return out;
    }

    private static ObjectNode nullable(ObjectNode schema) {
        ObjectNode out = NODES.objectNode();
        out.putArray("anyOf").add(NODES.objectNode().put("type", "null")).add(schema);
        return out;
    }

    private static ObjectNode ids(int max) {
        ObjectNode list = NODES.objectNode().put("type", "array").put("maxItems", max);
        list.set("items", string(UUID));
        return nullable(list);
    }

    private static ObjectNode ports() {
        ObjectNode port = NODES.objectNode().put("type", "object").put("additionalProperties", false);
        port.putArray("required").add("port");
        ObjectNode props = port.putObject("properties");
        props.putObject("port").put("type", "integer").put("minimum", 1).put("maximum", 65535);
        props.putObject("visibility").put("type", "string").putArray("enum").add("private").add("public");
        ObjectNode list = NODES.objectNode().put("type", "array").put("maxItems", 4);
        list.set("items", port);
        return list;
    }

    private static ObjectNode ownCredentials() {
        ObjectNode credential = NODES.objectNode().put("type", "object").put("additionalProperties", false);
        credential.putArray("required").add("name").add("secret");
        ObjectNode props = credential.putObject("properties");
        props.putObject("name").put("type", "string");
        props.putObject("secret").put("type", "string");
        props.putObject("domains").put("type", "array").putObject("items").put("type", "string");
        props.putObject("headerFormat").put("type", "string");
        ObjectNode list = NODES.objectNode().put("type", "array").put("maxItems", 20);
        list.set("items", credential);
        return list;
    }
}
