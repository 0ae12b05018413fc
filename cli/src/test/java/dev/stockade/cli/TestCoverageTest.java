package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stockade policy test --coverage} end to end. The expected figures are counted by hand from the files
 * below: api.yaml has 3 entries, 2 plain rules and 1 GraphQL fence; the cases reach entries 0 and 1, rule 0 and
 * the fence; the inline suite's two rows reach both grant entries and the ceiling's first entry.
 */
class TestCoverageTest {
    private static final String POLICY = """
            name: api
            allowedDomains:
              - pattern: blocked.example.com
                verdict: deny
              - pattern: api.example.com
                verdict: allow
                rules:
                  - method: GET
                    path: /v1/**
                  - method: POST
                    path: /v1/items
                  - path: /graphql
                    graphql:
                      operationType: query
                      fields: [viewer]
              - pattern: files.example.org
                verdict: allow
            """;
    private static final String TESTS = """
            name: api
            policies: [policies/api.yaml]
            cases:
              - name: a read
                request: {url: "https://api.example.com/v1/a"}
                expect: {verdict: allow}
              - name: the viewer
                request: {url: "https://api.example.com/graphql", graphql: {query: "{ viewer { login } }"}}
                expect: {verdict: allow}
              - name: blocked
                request: {url: "https://blocked.example.com/"}
                expect: {verdict: deny}
            ---
            name: clipped
            ceiling:
              - name: org
                allowedDomains:
                  - {pattern: "*.example.com", verdict: allow}
                  - {pattern: "*.example.net", verdict: allow}
            policies:
              - name: proj
                allowedDomains:
                  - {pattern: api.example.com, verdict: allow}
                  - {pattern: other.example.org, verdict: allow}
            cases:
              - name: allowed by both
                request: {url: "https://api.example.com/"}
                expect: {verdict: allow}
              - name: clipped by the ceiling
                request: {url: "https://other.example.org/"}
                expect: {verdict: deny}
            """;

    @TempDir
    Path dir;
    private Path tests;
    private Path policy;

    @BeforeEach
    void files() throws IOException {
        Files.createDirectories(dir.resolve("policies"));
        policy = Files.writeString(dir.resolve("policies/api.yaml"), POLICY);
        tests = Files.writeString(dir.resolve("api.test.yaml"), TESTS);
    }

    @Test
    void theTextReportCountsPerFileAndNamesWhatNoCaseReached() {
        CliRun run = CliRun.of("policy", "test", "--coverage", tests.toString());
        assertThat(run.status()).as(run.all()).isZero();
        assertThat(run.out()).contains(
                "coverage: 7/10 items (70.0%)",
                "  " + policy + "  4/6 (66.6%): entries 2/3, rules 1/2, graphql fences 1/1",
                "    not covered: " + policy + ":10: rule POST /v1/items of `api.example.com` (policy `api`)",
                "    not covered: " + policy + ":16: entry `files.example.org` (allow) (policy `api`)",
                "  " + tests + "  3/4 (75.0%): entries 3/4, rules 0/0, graphql fences 0/0",
                "    not covered: " + tests + ":19: entry `*.example.net` (allow) (policy `org`)");
        assertThat(run.out()).endsWith("5 passed, 0 failed\n");
    }

    @Test
    void withoutTheFlagNothingIsReported() {
        CliRun run = CliRun.of("policy", "test", tests.toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo("5 passed, 0 failed\n");
    }

    @Test
    void jsonCarriesTheTypedReportInTheSummaryObject() throws IOException {
        CliRun run = CliRun.of("policy", "test", "--coverage", "--format", "json", tests.toString());
        assertThat(run.status()).isZero();
        List<String> lines = run.out().lines().toList();
        JsonNode coverage = new ObjectMapper().readTree(lines.get(lines.size() - 1)).path("coverage");
        assertThat(coverage.path("covered").asInt()).isEqualTo(7);
        assertThat(coverage.path("total").asInt()).isEqualTo(10);
        assertThat(coverage.path("percent").asDouble()).isEqualTo(70.0);
        JsonNode api = coverage.path("files").get(1).path("file").asText().equals(policy.toString())
                ? coverage.path("files").get(1) : coverage.path("files").get(0);
        assertThat(api.path("graphqlFences").path("covered").asInt()).isEqualTo(1);
        assertThat(api.path("rules").path("total").asInt()).isEqualTo(2);
        JsonNode missed = api.path("uncovered").get(0);
        assertThat(missed.path("kind").asText()).isEqualTo("rule");
        assertThat(missed.path("line").asInt()).isEqualTo(10);
        assertThat(missed.path("pointer").asText()).isEqualTo("/allowedDomains/1/rules/1");
        assertThat(missed.path("policy").asText()).isEqualTo("api");
    }

    @Test
    void coverageMinFailsBelowAndPassesAtTheExactFigure() {
        CliRun below = CliRun.of("policy", "test", "--coverage-min", "70.1", tests.toString());
        assertThat(below.status()).isEqualTo(1);
        assertThat(below.err()).contains("coverage 70.0% is below --coverage-min 70.1%");
        assertThat(below.out()).contains("coverage: 7/10 items (70.0%)");
        assertThat(CliRun.of("policy", "test", "--coverage-min", "70", tests.toString()).status()).isZero();
    }

    @Test
    void theShownFigureIsRoundedDownSoItNeverPassesAGateItMisses() throws IOException {
        // one file alone: 4 of 6 items is 66.666...%, shown as 66.6; a gate at 66.7 fails, at 66.6 passes
        Files.writeString(tests, TESTS.substring(0, TESTS.indexOf("---")));
        CliRun shown = CliRun.of("policy", "test", "--coverage-min", "66.7", tests.toString());
        assertThat(shown.status()).isEqualTo(1);
        assertThat(shown.out()).contains("coverage: 4/6 items (66.6%)");
        assertThat(CliRun.of("policy", "test", "--coverage-min", "66.6", tests.toString()).status()).isZero();
    }

    @Test
    void aGateOverNothingMeasuredFails() throws IOException {
        Path onlyValidate = Files.writeString(dir.resolve("v.yaml"), """
                name: only validation
                validate:
                  - name: fine
                    policy: {name: p}
                    expect: {valid: true}
                """);
        CliRun run = CliRun.of("policy", "test", "--coverage-min", "0", onlyValidate.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("nothing was measured");
        assertThat(run.out()).contains("coverage: 0/0 items (100.0%)");
    }

    @Test
    void aMinimumOutsideZeroToHundredIsAUsageError() {
        for (String bad : List.of("101", "-1", "NaN")) {
            CliRun run = CliRun.of("policy", "test", "--coverage-min", bad, tests.toString());
            assertThat(run.status()).as(bad).isEqualTo(2);
            assertThat(run.err()).contains("--coverage-min must be a percentage from 0 to 100");
        }
        CliRun words = CliRun.of("policy", "test", "--coverage-min", "most", tests.toString());
        assertThat(words.status()).isEqualTo(2);
        assertThat(words.err()).doesNotContain("Exception");
    }

    @Test
    void aFailingCaseStillExitsOneAndAMalformedFileTwo() throws IOException {
        Files.writeString(tests, TESTS.replace("expect: {verdict: deny}\n---", "expect: {verdict: allow}\n---"));
        assertThat(CliRun.of("policy", "test", "--coverage-min", "0", tests.toString()).status()).isEqualTo(1);
        Files.writeString(tests, "name: x\ncases: [{name: c, request: {url: 'https://a.com/'}, expect: {verdikt: allow}}]\n"
                + "policies: [{name: p}]\n");
        assertThat(CliRun.of("policy", "test", "--coverage", tests.toString()).status()).isEqualTo(2);
    }
}
