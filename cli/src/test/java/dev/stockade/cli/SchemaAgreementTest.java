package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.cli.schema.PublishedSchemas;
import dev.stockade.cli.schema.SchemaKind;
import dev.stockade.cli.schema.SchemaValidator;
import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published schemas and the CLI's validators agree: every document of the project's corpus (examples/ and the
 * conformance suite) passes both, and every document of the invalid corpus (src/test/resources/schema-corpus) is
 * refused by both. Documents whose rule a schema cannot express are listed, and left out, in those files.
 */
class SchemaAgreementTest {
    private static final Path CONFORMANCE = Path.of("../conformance-tests/src/test/resources/conformance");
    private static final Path EXAMPLES = Path.of("../examples");
    private static final SchemaValidator POLICY = SchemaValidator.load(PublishedSchemas.text(SchemaKind.POLICY));
    private static final SchemaValidator SUITE = SchemaValidator.load(PublishedSchemas.text(SchemaKind.TEST));
    private static final List<String> SECTIONS = List.of("cases", "validate", "update", "effective", "describe",
            "spend", "reservation", "connectorReach");

    @TempDir
    Path dir;

    @Test
    void theExamplePoliciesPassBoth() throws IOException {
        List<Path> files = yamlFiles(EXAMPLES.resolve("policies"));
        assertThat(files).isNotEmpty();
        for (Path file : files) {
            ReadResult read = PolicyReader.read(file.toString(), Files.readString(file));
            assertThat(read.valid()).as("%s: %s", file, read.problems()).isTrue();
            assertThat(POLICY.violations(read.tree())).as(file.toString()).isEmpty();
        }
    }

    @Test
    void everyConformancePolicyTheReaderAcceptsTheSchemaAcceptsAndTheOtherWayRound() throws IOException {
        int accepted = 0;
        int refusedByBoth = 0;
        for (JsonNode policy : inlinePolicies()) {
            boolean reader = PolicyReader.fromTree(policy, null, "inline", policy.toString()).valid();
            List<String> schema = POLICY.violations(policy);
            // The schema is the reader's first layer: it is never stricter. The reader refuses more (semantic rules).
            if (reader) {
                assertThat(schema).as("the schema refuses a policy the reader accepts: %s", policy).isEmpty();
                accepted++;
            } else if (!schema.isEmpty()) {
                refusedByBoth++;
            }
        }
        // floors that keep the corpus from going empty unnoticed
        assertThat(accepted).isGreaterThan(100);
        assertThat(refusedByBoth).isGreaterThan(10);
    }

    @Test
    void theInvalidPoliciesAreRefusedByBoth() throws IOException {
        JsonNode corpus = corpus("invalid-policies.yaml");
        assertThat(corpus.size()).isGreaterThanOrEqualTo(20);
        for (JsonNode item : corpus) {
            JsonNode policy = item.path("policy");
            ReadResult read = PolicyReader.fromTree(policy, null, "inline", policy.toString());
            assertThat(read.valid()).as("the reader accepts: %s", item.path("rule").asText()).isFalse();
            assertThat(POLICY.violations(policy)).as("the schema accepts: %s", item.path("rule").asText()).isNotEmpty();
        }
    }

    @Test
    void theExampleAndConformanceTestFilesPassBoth() throws IOException {
        List<Path> files = new ArrayList<>(testFiles(EXAMPLES.resolve("tests")));
        files.addAll(testFiles(CONFORMANCE));
        assertThat(files).hasSizeGreaterThan(40);
        for (Path file : files) {
            for (ParsedDocument doc : Documents.parseAll(file.toString(), Files.readString(file))) {
                assertThat(SUITE.violations(doc.root())).as("%s, suite %s", file, doc.root().path("name")).isEmpty();
            }
        }
        CliRun run = CliRun.of(Stream.concat(Stream.of("policy", "test"), files.stream().map(Path::toString))
                .toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
    }

    @Test
    void theInvalidSuitesAreRefusedByBoth() throws IOException {
        JsonNode corpus = corpus("invalid-suites.yaml");
        assertThat(corpus.size()).isGreaterThanOrEqualTo(10);
        for (JsonNode item : corpus) {
            String rule = item.path("rule").asText();
            assertThat(SUITE.violations(item.path("suite"))).as("the schema accepts: %s", rule).isNotEmpty();
            Path file = Files.writeString(dir.resolve("suite.test.yaml"), item.path("suite").toString());
            CliRun run = CliRun.of("policy", "test", file.toString());
            assertThat(run.status()).as("policy test did not call it malformed: %s\n%s", rule, run.all()).isEqualTo(2);
        }
    }

    private static JsonNode corpus(String name) throws IOException {
        try (InputStream in = SchemaAgreementTest.class.getResourceAsStream("/schema-corpus/" + name)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            ParsedDocument doc = Documents.parse(name, text);
            assertThat(doc.problems()).isEmpty();
            return doc.root();
        }
    }

    /**
     * Every inline policy of the conformance suite: those that cases resolve (valid by the format's rule) and those
     * of validate cases (valid and invalid ones alike).
     */
    private static List<JsonNode> inlinePolicies() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (Path file : testFiles(CONFORMANCE)) {
            for (ParsedDocument doc : Documents.parseAll(file.toString(), Files.readString(file))) {
                collect(doc.root(), out);
                for (String section : SECTIONS) {
                    doc.root().path(section).forEach(c -> collect(c, out));
                }
            }
        }
        return out;
    }

    private static void collect(JsonNode holder, List<JsonNode> out) {
        Stream.of(holder.path("policy")).filter(JsonNode::isObject).forEach(out::add);
        for (String list : List.of("policies", "ceiling")) {
            holder.path(list).forEach(p -> {
                if (p.isObject()) {
                    out.add(p);
                }
            });
        }
    }

    /** The test files below {@code root}: as the runner decides, a file with a suite section in one of its documents. */
    private static List<Path> testFiles(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path file : yamlFiles(root)) {
            boolean suite = Documents.parseAll(file.toString(), Files.readString(file)).stream()
                    .anyMatch(d -> d.root() != null && SECTIONS.stream().anyMatch(d.root()::has));
            if (suite) {
                out.add(file);
            }
        }
        return out;
    }

    private static List<Path> yamlFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
    }
}
