package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.cli.schema.PublishedSchemas;
import dev.stockade.cli.schema.SchemaKind;
import dev.stockade.cli.schema.SchemaValidator;
import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The published sandbox schema and the platform agree on the sandbox corpus (schema-corpus/sandboxes.yaml): what the
 * schema accepts, {@code sandbox create -f} creates; what it refuses, the platform refuses with problem details.
 */
class SandboxSchemaAgreementTest extends SignedInCliTest {
    private static final SchemaValidator SANDBOX = SchemaValidator.load(PublishedSchemas.text(SchemaKind.SANDBOX));

    @Test
    void theSchemaAndThePlatformAgreeOnEverySandboxFile() throws Exception {
        JsonNode corpus = corpus();
        String org = ok("orgs", "create", "schema-agreement").path("id").asText();
        String project = ok("projects", "create", "--org", org, "sandboxes").path("id").asText();
        for (JsonNode sandbox : corpus.path("valid")) {
            assertThat(SANDBOX.violations(sandbox)).as("the schema refuses %s", sandbox).isEmpty();
            String id = ok("sandbox", "create", "--project", project, "-f", write(sandbox).toString()).path("id").asText();
            ok("sandbox", "delete", "--project", project, id);
        }
        assertThat(corpus.path("invalid").size()).isGreaterThanOrEqualTo(10);
        for (JsonNode item : corpus.path("invalid")) {
            String rule = item.path("rule").asText();
            assertThat(SANDBOX.violations(item.path("sandbox"))).as("the schema accepts: %s", rule).isNotEmpty();
            Cli.Run run = cli.run("sandbox", "create", "--project", project, "-f", write(item.path("sandbox")).toString());
            assertThat(run.status()).as("the platform accepts: %s\n%s", rule, run).isEqualTo(1);
            assertThat(run.err()).as(rule).contains("HTTP 400");
        }
        assertThat(ok("sandbox", "list", "--project", project).path("items")).isEmpty();
    }

    private Path write(JsonNode sandbox) throws IOException {
        return Files.writeString(dir.resolve("sandbox.yaml"), sandbox.toString());
    }

    private static JsonNode corpus() throws IOException {
        try (InputStream in = SandboxSchemaAgreementTest.class.getResourceAsStream("/schema-corpus/sandboxes.yaml")) {
            ParsedDocument doc = Documents.parse("sandboxes.yaml", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            assertThat(doc.problems()).isEmpty();
            return doc.root();
        }
    }
}
