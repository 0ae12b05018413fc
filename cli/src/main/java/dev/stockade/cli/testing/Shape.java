package dev.stockade.cli.testing;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The declared shape of a policy test file (FORMAT.md), checked before anything runs so that a
 * misspelled key is an error rather than a silently ignored expectation.
 */
sealed interface Shape {

    /** Reports every mismatch of {@code node} at {@code pointer} to {@code problems}. */
    void check(JsonNode node, String pointer, BiConsumer<String, String> problems);

    /**
     * This shape as a JSON Schema (draft-07) fragment: the published schema of test files is generated from the
     * same declaration the runner checks, so the two cannot drift apart. A policy refers to {@code #/definitions/policy}.
     */
    ObjectNode schema();

    /** An object with known keys; any other key is an error. */
    record Obj(String what, Map<String, Shape> keys, Set<String> required) implements Shape {
        @Override
        public void check(JsonNode node, String pointer, BiConsumer<String, String> problems) {
            if (!node.isObject()) {
                problems.accept(pointer, what + " must be a mapping");
                return;
            }
            for (String key : required) {
                if (!node.has(key)) {
                    problems.accept(pointer + "/" + escape(key), what + " lacks the required key " + Quoted.input(key));
                }
            }
            node.fields().forEachRemaining(field -> {
                String at = pointer + "/" + escape(field.getKey());
                Shape shape = keys.get(field.getKey());
                if (shape == null) {
                    problems.accept(at, "unknown key " + Quoted.input(field.getKey()) + " in " + what
                            + "; known keys: " + String.join(", ", new java.util.TreeSet<>(keys.keySet())));
                } else {
                    shape.check(field.getValue(), at, problems);
                }
            });
        }

        @Override
        public ObjectNode schema() {
            ObjectNode out = NODES.objectNode().put("description", what).put("type", "object")
                    .put("additionalProperties", false);
            if (!required.isEmpty()) {
                new java.util.TreeSet<>(required).forEach(out.putArray("required")::add);
            }
            ObjectNode properties = out.putObject("properties");
            new java.util.TreeMap<>(keys).forEach((key, shape) -> properties.set(key, shape.schema()));
            return out;
        }
    }

    /** A sequence whose every element has the same shape. */
    record ListOf(String what, Shape element) implements Shape {
        @Override
        public void check(JsonNode node, String pointer, BiConsumer<String, String> problems) {
            if (!node.isArray()) {
                problems.accept(pointer, what + " must be a list");
                return;
            }
            for (int i = 0; i < node.size(); i++) {
                element.check(node.get(i), pointer + "/" + i, problems);
            }
        }

        @Override
        public ObjectNode schema() {
            ObjectNode out = NODES.objectNode().put("description", what).put("type", "array");
            out.set("items", element.schema());
            return out;
        }
    }

    /** A scalar or structure of one JSON kind; {@code nullable} admits an explicit null. */
    record Leaf(String what, Kind kind, boolean nullable) implements Shape {
        @Override
        public void check(JsonNode node, String pointer, BiConsumer<String, String> problems) {
            if (node.isNull() && nullable) {
                return;
            }
            if (!kind.accepts(node)) {
                problems.accept(pointer, what + " must be " + kind.description);
            }
        }

        @Override
        public ObjectNode schema() {
            ObjectNode kindSchema = kind.schema();
            if (!nullable) {
                return kindSchema.put("description", what);
            }
            ObjectNode out = NODES.objectNode().put("description", what);
            out.putArray("anyOf").add(NODES.objectNode().put("type", "null")).add(kindSchema);
            return out;
        }
    }

    /** JSON kinds a leaf may require. */
    enum Kind {
        STRING("a string"), BOOLEAN("true or false"), OBJECT("a mapping"), ANY("a value"),
        STRING_MAP("a mapping of strings to strings"), POLICY("a policy mapping or a path string"),
        POLICY_UNDER_TEST("a policy mapping or a path string"), STRING_LIST("a list of strings");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        boolean accepts(JsonNode node) {
            return switch (this) {
                case STRING -> node.isTextual();
                case BOOLEAN -> node.isBoolean();
                case OBJECT -> node.isObject();
                case ANY -> true;
                case POLICY, POLICY_UNDER_TEST -> node.isObject() || node.isTextual();
                case STRING_MAP -> node.isObject() && allScalars(node);
                case STRING_LIST -> node.isArray() && allText(node);
            };
        }

        /**
         * The schema of this kind. A policy that cases resolve must be valid (the runner refuses the file otherwise),
         * so it is the policy schema; a policy under test (validate, update) may be broken on purpose: any mapping.
         */
        ObjectNode schema() {
            ObjectNode out = NODES.objectNode();
            switch (this) {
                case STRING -> out.put("type", "string");
                case BOOLEAN -> out.put("type", "boolean");
                case OBJECT -> out.put("type", "object");
                case ANY -> { }
                case STRING_MAP -> out.put("type", "object").putObject("additionalProperties").putArray("type")
                        .add("string").add("number").add("boolean");
                case POLICY -> out.putArray("anyOf").add(NODES.objectNode().put("type", "string"))
                        .add(NODES.objectNode().put("$ref", "#/definitions/policy"));
                case POLICY_UNDER_TEST -> out.putArray("type").add("object").add("string");
                case STRING_LIST -> out.put("type", "array").putObject("items").put("type", "string");
            }
            return out;
        }

        private static boolean allScalars(JsonNode node) {
            for (JsonNode value : node) {
                if (!value.isValueNode() || value.isNull()) {
                    return false;
                }
            }
            return true;
        }

        private static boolean allText(JsonNode node) {
            for (JsonNode value : node) {
                if (!value.isTextual()) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Builds the schema fragments. */
    JsonNodeFactory NODES = JsonNodeFactory.instance;

    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    static Leaf leaf(String what, Kind kind) {
        return new Leaf(what, kind, false);
    }

    static Obj obj(String what, Map<String, Shape> keys, String... required) {
        return new Obj(what, keys, Set.of(required));
    }

    static ListOf list(String what, Shape element) {
        return new ListOf(what, element);
    }

    /** An {@code install} mapping, in a test file or an {@code --install} file. */
    static Shape install() {
        return obj("install", Map.of(
                "providers", leaf("providers", Kind.STRING_LIST),
                "bedrockAmbient", leaf("bedrockAmbient", Kind.BOOLEAN)));
    }

    /** A spend admission case (an extension of FORMAT.md): limits with their spend, the admission expected. */
    private static Shape spendCase() {
        Shape limit = obj("spend limit", Map.of(
                "scope", leaf("scope", Kind.STRING),
                "period", leaf("period", Kind.STRING),
                "limitUsd", leaf("limitUsd", Kind.STRING),
                "spentUsd", leaf("spentUsd", Kind.STRING)), "scope", "limitUsd", "spentUsd");
        return obj("spend case", Map.of(
                "name", leaf("name", Kind.STRING),
                "limits", list("limits", limit),
                "expect", obj("spend expect", Map.of(
                        "allowed", leaf("allowed", Kind.BOOLEAN),
                        "reason", leaf("reason", Kind.STRING),
                        "reached", leaf("reached", Kind.STRING_LIST)), "allowed")),
                "name", "limits", "expect");
    }

    /** A reservation fit case (an extension of FORMAT.md): a cost, limits with spend and holds, the fit expected. */
    private static Shape reservationCase() {
        Shape limit = obj("reservation limit", Map.of(
                "scope", leaf("scope", Kind.STRING),
                "period", leaf("period", Kind.STRING),
                "limitUsd", leaf("limitUsd", Kind.STRING),
                "spentUsd", leaf("spentUsd", Kind.STRING),
                "heldUsd", leaf("heldUsd", Kind.STRING)), "scope", "limitUsd", "spentUsd");
        Shape refused = obj("refused limit", Map.of(
                "scope", leaf("scope", Kind.STRING),
                "overUsd", leaf("overUsd", Kind.STRING)), "scope", "overUsd");
        return obj("reservation case", Map.of(
                "name", leaf("name", Kind.STRING),
                "costUsd", leaf("costUsd", Kind.STRING),
                "limits", list("limits", limit),
                "expect", obj("reservation expect", Map.of(
                        "fits", leaf("fits", Kind.BOOLEAN),
                        "reason", leaf("reason", Kind.STRING),
                        "refused", list("refused", refused)), "fits")),
                "name", "costUsd", "limits", "expect");
    }

    /** A suggest case (an extension of FORMAT.md): recorded traffic and tool calls, the suggestion expected. */
    private static Shape suggestCase() {
        Shape traffic = obj("traffic item", Map.of(
                "url", leaf("url", Kind.STRING),
                "connect", leaf("connect", Kind.STRING),
                "passthrough", leaf("passthrough", Kind.STRING),
                "method", leaf("method", Kind.STRING),
                "caller", leaf("caller", Kind.STRING),
                "verdict", leaf("verdict", Kind.STRING),
                "graphql", leaf("graphql", Kind.ANY)));
        Shape tool = obj("tool call", Map.of(
                "connectorId", leaf("connectorId", Kind.STRING),
                "tool", leaf("tool", Kind.STRING)), "connectorId", "tool");
        return obj("suggest case", Map.of(
                "name", leaf("name", Kind.STRING),
                "minSubdomains", leaf("minSubdomains", Kind.ANY),
                "minPaths", leaf("minPaths", Kind.ANY),
                "traffic", list("traffic", traffic),
                "tools", list("tools", tool),
                "expect", obj("suggest expect", Map.of(
                        "patterns", leaf("patterns", Kind.STRING_LIST),
                        "allowedDomains", leaf("allowedDomains", Kind.ANY),
                        "connectors", leaf("connectors", Kind.ANY)))),
                "name", "expect");
    }

    /** A connector-reach case (an extension of FORMAT.md): projects with their policies, the grants expected. */
    private static Shape reachCase(Shape policies) {
        Shape project = obj("project", Map.of(
                "org", leaf("org", Kind.STRING),
                "ceiling", policies,
                "policies", policies), "org", "policies");
        Shape granted = obj("granted connector", Map.of(
                "org", leaf("org", Kind.STRING),
                "connectorId", leaf("connectorId", Kind.STRING),
                "tools", leaf("tools", Kind.STRING_LIST),
                "credentialId", leaf("credentialId", Kind.STRING)), "org", "connectorId", "tools");
        return obj("connectorReach case", Map.of(
                "name", leaf("name", Kind.STRING),
                "halted", leaf("halted", Kind.STRING_LIST),
                "projects", list("projects", project),
                "expect", list("connectorReach expect", granted)),
                "name", "projects", "expect");
    }

    /** The whole test-file format of FORMAT.md. */
    static Shape suite() {
        Shape policy = leaf("a policy", Kind.POLICY);
        Shape policies = list("policies", policy);
        Shape install = install();
        Shape graphql = obj("request graphql", Map.of(
                "query", leaf("graphql query", Kind.STRING),
                "operationName", new Leaf("operationName", Kind.STRING, true),
                "variables", new Leaf("variables", Kind.OBJECT, true)), "query");
        Shape request = obj("request", Map.of(
                "url", leaf("url", Kind.STRING),
                "method", leaf("method", Kind.STRING),
                "caller", leaf("caller", Kind.STRING),
                "headers", leaf("headers", Kind.STRING_MAP),
                "graphql", graphql,
                "body", leaf("body", Kind.STRING)), "url");
        Shape decisionCase = obj("decision case", Map.of(
                "name", leaf("name", Kind.STRING),
                "install", install,
                "ceiling", policies,
                "policies", policies,
                "request", request,
                "expect", obj("decision expect", Map.of(
                        "verdict", leaf("verdict", Kind.STRING),
                        "transport", leaf("transport", Kind.STRING)), "verdict")),
                "name", "request", "expect");
        Shape validateCase = obj("validate case", Map.of(
                "name", leaf("name", Kind.STRING),
                "policy", leaf("a policy under test", Kind.POLICY_UNDER_TEST),
                "expect", obj("validate expect", Map.of(
                        "valid", leaf("valid", Kind.BOOLEAN),
                        "errors", leaf("errors", Kind.STRING_LIST),
                        "exactly", leaf("exactly", Kind.BOOLEAN)), "valid")),
                "name", "policy", "expect");
        Shape updateCase = obj("update case", Map.of(
                "name", leaf("name", Kind.STRING),
                "mode", leaf("mode", Kind.STRING),
                "stored", new Leaf("stored", Kind.POLICY_UNDER_TEST, true),
                "body", new Leaf("body", Kind.ANY, false),
                "expect", obj("update expect", Map.of(
                        "result", new Leaf("result", Kind.OBJECT, true),
                        "errors", leaf("errors", Kind.STRING_LIST)))),
                "name", "mode", "body", "expect");
        Shape effectiveCase = obj("effective case", Map.of(
                "name", leaf("name", Kind.STRING),
                "install", install,
                "ceiling", policies,
                "policies", policies,
                "expect", obj("effective expect", Map.of(
                        "managedInference", new Leaf("managedInference", Kind.OBJECT, true),
                        "piiMasking", new Leaf("piiMasking", Kind.OBJECT, true),
                        "sandboxEnv", leaf("sandboxEnv", Kind.STRING_MAP),
                        "sandboxEnvKeys", leaf("sandboxEnvKeys", Kind.STRING_LIST),
                        "absentEnvKeys", leaf("absentEnvKeys", Kind.STRING_LIST),
                        "connectorGrants", leaf("connectorGrants", Kind.ANY),
                        "boundCredentials", leaf("boundCredentials", Kind.STRING_LIST),
                        "domains", leaf("domains", Kind.STRING_LIST)))),
                "name", "expect");
        Shape describeCase = obj("describe case", Map.of(
                "name", leaf("name", Kind.STRING),
                "policy", policy,
                "expect", leaf("describe expect", Kind.STRING_LIST)),
                "name", "policy", "expect");
        return obj("suite", Map.ofEntries(
                Map.entry("name", leaf("name", Kind.STRING)),
                Map.entry("install", install),
                Map.entry("ceiling", policies),
                Map.entry("policies", policies),
                Map.entry("cases", list("cases", decisionCase)),
                Map.entry("validate", list("validate", validateCase)),
                Map.entry("update", list("update", updateCase)),
                Map.entry("effective", list("effective", effectiveCase)),
                Map.entry("describe", list("describe", describeCase)),
                Map.entry("spend", list("spend", spendCase())),
                Map.entry("reservation", list("reservation", reservationCase())),
                Map.entry("connectorReach", list("connectorReach", reachCase(policies))),
                Map.entry("suggest", list("suggest", suggestCase()))),
                "name");
    }
}
