package dev.stockade.policy.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes a policy back as a tree, YAML or JSON, in the canonical key order of the spec tables. Absent
 * (null) components are omitted and empty lists are written, so reading what was written gives the
 * same policy.
 */
public final class PolicyWriter {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build());

    private PolicyWriter() {
    }

    /** The policy as a JSON tree in canonical key order. */
    public static ObjectNode toTree(Policy p) {
        ObjectNode o = NODES.objectNode();
        put(o, "name", p.name());
        put(o, "description", p.description());
        put(o, "networkDefaultVerdict", p.networkDefaultVerdict() == null ? null : p.networkDefaultVerdict().wire());
        put(o, "networkDefaultTransport",
                p.networkDefaultTransport() == null ? null : p.networkDefaultTransport().wire());
        list(o, "allowedDomains", p.allowedDomains(), PolicyWriter::domainEntry);
        list(o, "credentials", p.credentials(), c -> {
            ObjectNode n = NODES.objectNode();
            put(n, "credentialName", c.credentialName());
            put(n, "envVarKey", c.envVarKey());
            return n;
        });
        list(o, "connectors", p.connectors(), c -> {
            ObjectNode n = NODES.objectNode();
            put(n, "connectorId", c.connectorId());
            list(n, "allowedTools", c.allowedTools(), NODES::textNode);
            put(n, "credentialId", c.credentialId());
            return n;
        });
        list(o, "integrations", p.integrations(), i -> {
            ObjectNode n = NODES.objectNode();
            put(n, "type", i.type() == null ? null : i.type().wire());
            put(n, "name", i.name());
            return n;
        });
        if (p.managedInference() != null) {
            ManagedInference m = p.managedInference();
            ObjectNode n = o.putObject("managedInference");
            if (m.enabled() != null) {
                n.put("enabled", m.enabled());
            }
            put(n, "provider", m.provider() == null ? null : m.provider().wire());
            list(n, "providers", m.providers(), v -> NODES.textNode(v.wire()));
            map(n, "env", m.env());
        }
        if (p.piiMasking() != null) {
            PiiMasking m = p.piiMasking();
            ObjectNode n = o.putObject("piiMasking");
            list(n, "types", m.types(), v -> NODES.textNode(v.wire()));
            if (m.unmaskResponses() != null) {
                n.put("unmaskResponses", m.unmaskResponses());
            }
            if (m.failOpen() != null) {
                n.put("failOpen", m.failOpen());
            }
        }
        map(o, "env", p.env());
        return o;
    }

    /** The policy as YAML (strings quoted so that no value changes type on reading). */
    public static String toYaml(Policy p) {
        try {
            return YAML.writeValueAsString(toTree(p));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The policy as indented JSON. */
    public static String toJson(Policy p) {
        try {
            return JSON.writeValueAsString(toTree(p));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode domainEntry(DomainEntry e) {
        ObjectNode n = NODES.objectNode();
        put(n, "pattern", e.pattern());
        put(n, "verdict", e.verdict() == null ? null : e.verdict().wire());
        put(n, "transport", e.transport() == null ? null : e.transport().wire());
        put(n, "scheme", e.scheme());
        put(n, "description", e.description());
        list(n, "rules", e.rules(), PolicyWriter::rule);
        list(n, "binaries", e.binaries(), NODES::textNode);
        return n;
    }

    private static ObjectNode rule(Rule r) {
        ObjectNode n = NODES.objectNode();
        put(n, "method", r.method());
        put(n, "path", r.path());
        GraphqlFence g = r.graphql();
        if (g != null) {
            ObjectNode q = n.putObject("graphql");
            put(q, "operationType", g.operationType() == null ? null : g.operationType().wire());
            put(q, "operationName", g.operationName());
            list(q, "fields", g.fields(), NODES::textNode);
            list(q, "arguments", g.arguments(), a -> {
                ObjectNode c = NODES.objectNode();
                put(c, "field", a.field());
                put(c, "pointer", a.pointer());
                put(c, "glob", a.glob());
                return c;
            });
        }
        return n;
    }

    private static void put(ObjectNode o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    private static <T> void list(ObjectNode o, String key, List<T> values, Function<T, ? extends com.fasterxml.jackson.databind.JsonNode> each) {
        if (values != null) {
            ArrayNode a = o.putArray(key);
            values.forEach(v -> a.add(each.apply(v)));
        }
    }

    private static void map(ObjectNode o, String key, Map<String, String> values) {
        if (values != null) {
            ObjectNode n = o.putObject(key);
            values.forEach(n::put);
        }
    }
}
