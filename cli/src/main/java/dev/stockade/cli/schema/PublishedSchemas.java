package dev.stockade.cli.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.cli.testing.SuiteSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The JSON Schemas Stockade publishes for editors and CI, generated from what the validators run: the policy schema
 * is the one the policy reader checks every document with; the test and sandbox schemas are generated from their
 * shape declarations and embed that policy schema, so a policy is described once.
 */
public final class PublishedSchemas {
    /** The policy reader's own schema (policy-model), the first layer of every policy validation. */
    static final String POLICY_RESOURCE = "/dev/stockade/policy/model/policy.schema.json";
    private static final String DRAFT = "http://json-schema.org/draft-07/schema#";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PublishedSchemas() {
    }

    /** The schema of {@code kind}, as a fresh tree. */
    public static ObjectNode of(SchemaKind kind) {
        return switch (kind) {
            case POLICY -> policy();
            case TEST -> embedding(kind, "Stockade policy test suite", "One suite (one YAML document) of a policy"
                    + " test file (docs/policy-tests.md). A policy is a path relative to the file or an inline policy;"
                    + " validate and update cases may hold broken policies on purpose.", SuiteSchema.schema());
            case SANDBOX -> embedding(kind, "Stockade sandbox", "A sandbox file for `stockade sandbox create -f`"
                    + " (docs/cli.md). The cpu and memory ceiling of the installation and the ids' existence are"
                    + " checked by the platform.", SandboxFileShape.body());
        };
    }

    /** The text committed under {@code docs/schema/}: two-space indentation, one trailing newline. */
    public static String text(SchemaKind kind) {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        try {
            return JSON.writer(printer).writeValueAsString(of(kind)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a generated schema did not serialise", e);
        }
    }

    private static ObjectNode policy() {
        try (InputStream in = PublishedSchemas.class.getResourceAsStream(POLICY_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the policy schema " + POLICY_RESOURCE + " is not on the classpath");
            }
            ObjectNode schema = (ObjectNode) JSON.readTree(in);
            schema.put("$id", SchemaKind.POLICY.id());
            return schema;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A schema whose {@code body} refers to {@code #/definitions/policy}: the policy schema's definitions move to the
     * root (its {@code $ref}s are root-relative) and its top level becomes {@code definitions/policy}.
     */
    private static ObjectNode embedding(SchemaKind kind, String title, String description, ObjectNode body) {
        ObjectNode policy = policy();
        JsonNode policyDefinitions = policy.remove("definitions");
        policy.remove(java.util.List.of("$schema", "$id"));
        ObjectNode out = JSON.createObjectNode().put("$schema", DRAFT).put("$id", kind.id())
                .put("title", title).put("description", description);
        body.remove("description");
        out.setAll(body);
        ObjectNode definitions = out.putObject("definitions");
        definitions.set("policy", policy);
        for (Map.Entry<String, JsonNode> e : policyDefinitions.properties()) {
            definitions.set(e.getKey(), e.getValue());
        }
        return out;
    }
}
