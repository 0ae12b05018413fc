package dev.stockade.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code policy fmt} over the project's own YAML: the conformance corpus and the examples. Every file formats
 * to text that a plain YAML reader reads to the same documents, a second pass changes nothing, and every policy
 * in them (files and inline ones, re-written plainly first) reads to the same policy, problems included.
 */
class PolicyFormatFixturesTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final List<Path> ROOTS = List.of(Path.of("../conformance-tests/src/test/resources/conformance"),
            Path.of("../examples"));
    /** The corpus's files that must not read: fmt refuses them as the reader does. */
    private static final List<String> UNREADABLE = List.of("alias.yaml", "duplicate-key.yaml");

    private static List<Path> fixtures() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path root : ROOTS) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void theFixturesAreThere() throws IOException {
        assertThat(fixtures()).hasSizeGreaterThan(40);
    }

    @TestFactory
    Stream<DynamicTest> everyFixtureFormatsWithoutChangingMeaning() throws IOException {
        return fixtures().stream().map(file -> DynamicTest.dynamicTest(file.toString(), () -> check(file)));
    }

    private static void check(Path file) throws IOException {
        String text = Files.readString(file);
        FormatOutcome outcome = PolicyFormat.format(file.toString(), text);
        if (UNREADABLE.contains(file.getFileName().toString())) {
            assertThat(outcome).isInstanceOf(FormatOutcome.Refused.class);
            return;
        }
        assertThat(outcome).as(file.toString()).isInstanceOf(FormatOutcome.Formatted.class);
        String formatted = ((FormatOutcome.Formatted) outcome).text();
        assertThat(documents(formatted)).as(formatted).isEqualTo(documents(text));
        assertThat(PolicyFormat.format(file.toString(), formatted)).isEqualTo(new FormatOutcome.Formatted(formatted, false));
        if (file.getParent().getFileName().toString().equals("policies")) {
            samePolicy(text);
        }
        for (JsonNode doc : documents(text)) {
            for (JsonNode policy : inlinePolicies(doc)) {
                samePolicy(YAML.writeValueAsString(policy));
            }
        }
    }

    /** The policy written in {@code text}, formatted: the same policy and the same problems. */
    private static void samePolicy(String text) {
        FormatOutcome outcome = PolicyFormat.format("p.yaml", text);
        assertThat(outcome).as(text).isInstanceOf(FormatOutcome.Formatted.class);
        String formatted = ((FormatOutcome.Formatted) outcome).text();
        ReadResult before = PolicyReader.read("p.yaml", text);
        ReadResult after = PolicyReader.read("p.yaml", formatted);
        assertThat(after.policy()).as(formatted).isEqualTo(before.policy());
        assertThat(after.tree()).isEqualTo(before.tree());
        // the same problems; their order follows positions, which formatting moves
        assertThat(after.problems().stream().map(PolicyFormatFixturesTest::what).toList())
                .containsExactlyInAnyOrderElementsOf(before.problems().stream().map(PolicyFormatFixturesTest::what).toList());
    }

    private static String what(Problem p) {
        return p.code() + " " + p.pointer() + " " + p.message();
    }

    private static List<JsonNode> documents(String text) throws IOException {
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(text)) {
            return docs.readAll();
        }
    }

    /** Inline policy objects of a test suite: its and its cases' policies and ceilings, validate and describe policies. */
    private static List<JsonNode> inlinePolicies(JsonNode suite) {
        List<JsonNode> out = new ArrayList<>();
        collect(suite, out);
        for (String section : List.of("cases", "validate", "update", "effective", "describe", "connectorReach")) {
            for (JsonNode c : suite.path(section)) {
                collect(c, out);
                c.path("projects").forEach(p -> collect(p, out));
            }
        }
        return out;
    }

    private static void collect(JsonNode holder, List<JsonNode> out) {
        for (String key : List.of("policies", "ceiling")) {
            holder.path(key).forEach(p -> {
                if (p.isObject()) {
                    out.add(p);
                }
            });
        }
        if (holder.path("policy").isObject()) {
            out.add(holder.get("policy"));
        }
    }
}
