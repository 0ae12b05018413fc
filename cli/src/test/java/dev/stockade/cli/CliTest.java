package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands end to end, on real files: output, formats and exit statuses. */
class CliTest {
    private static final String GOOD = """
            name: github
            networkDefaultVerdict: deny
            allowedDomains:
              - pattern: api.github.com
                verdict: allow
                transport: upstream
                rules:
                  - {method: GET, path: "/repos/**"}
              - {pattern: github.com, verdict: allow, transport: upstream, binaries: [/usr/bin/git]}
            """;
    private static final String BAD = """
            name: broken
            allowedDomains:
              - pattern: github.com
                verdict: allow
                binaries: [git]
            """;

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void helpListsTheCommands() {
        CliRun run = run("policy", "--help");
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("lint", "describe", "test", "eval", "effective");
    }

    @Test
    void lintOfACleanPolicyExitsZero() throws IOException {
        CliRun run = run("policy", "lint", write("good.yaml", GOOD).toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("1 file checked: 0 errors");
    }

    @Test
    void lintPointsAtTheOffendingValueWithACaret() throws IOException {
        Path bad = write("bad.yaml", BAD);
        CliRun run = run("policy", "lint", bad.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).contains(bad + ":5:").contains("binaries: [git]").contains("^");
    }

    @Test
    void lintOfAMissingFileExitsTwo() {
        CliRun run = run("policy", "lint", dir.resolve("nope.yaml").toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("cannot read");
    }

    @Test
    void lintSpeaksSarifForCodeScanning() throws Exception {
        CliRun run = run("policy", "lint", "--format", "sarif", write("bad.yaml", BAD).toString());
        JsonNode sarif = new ObjectMapper().readTree(run.out());
        assertThat(sarif.path("version").asText()).isEqualTo("2.1.0");
        JsonNode result = sarif.path("runs").get(0).path("results").get(0);
        assertThat(result.path("locations").get(0).path("physicalLocation").path("region").path("startLine").asInt()).isEqualTo(5);
    }

    @Test
    void lintJsonListsProblemsWithPointers() throws Exception {
        CliRun run = run("policy", "lint", "--format", "json", write("bad.yaml", BAD).toString());
        JsonNode file = new ObjectMapper().readTree(run.out()).path("files").get(0);
        assertThat(file.path("valid").asBoolean()).isFalse();
        assertThat(file.path("problems").get(0).path("pointer").asText()).isEqualTo("/allowedDomains/0/binaries/0");
        JsonNode details = file.path("problemDetails");
        assertThat(details.path("type").asText()).startsWith("https://stockade.dev/problems/");
        assertThat(details.path("status").asInt()).isEqualTo(422);
        assertThat(details.path("errors").get(0).path("pointer").asText()).isEqualTo("/allowedDomains/0/binaries/0");
    }

    @Test
    void describePrintsOneRowPerEntry() throws IOException {
        CliRun run = run("policy", "describe", write("good.yaml", GOOD).toString());
        assertThat(run.status()).isZero();
        assertThat(run.out().lines()).containsExactly(
                "api.github.com  allow  */upstream  callers=any  rules=GET /repos/**",
                "github.com  allow  */upstream  callers=/usr/bin/git  rules=any");
    }

    @Test
    void testRunnerPassesFailsAndRejectsMalformedFiles() throws IOException {
        write("good.yaml", GOOD);
        Path passing = write("pass.test.yaml", """
                name: suite
                policies: [good.yaml]
                cases:
                  - name: reads pass
                    request: {url: "https://api.github.com/repos/acme/app"}
                    expect: {verdict: allow, transport: upstream}
                """);
        CliRun ok = run("policy", "test", passing.toString());
        assertThat(ok.status()).isZero();
        assertThat(ok.out().strip()).endsWith("1 passed, 0 failed");

        Path failing = write("fail.test.yaml", """
                name: suite
                policies: [good.yaml]
                cases:
                  - name: deletes pass
                    request: {url: "https://api.github.com/repos/acme/app", method: DELETE}
                    expect: {verdict: allow}
                """);
        CliRun failed = run("policy", "test", failing.toString());
        assertThat(failed.status()).isEqualTo(1);
        assertThat(failed.out()).contains("FAIL", "deletes pass", "expected allow").endsWith("0 passed, 1 failed\n");

        Path malformed = write("bad.test.yaml", """
                name: suite
                cases:
                  - name: typo
                    requets: {url: "https://x.example"}
                    expect: {verdict: deny}
                """);
        CliRun bad = run("policy", "test", malformed.toString());
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains(malformed + ":4:").contains("unknown key `requets`");
    }

    @Test
    void aDecisionCaseOnAnInvalidPolicyMakesTheFileMalformed() throws IOException {
        write("bad.yaml", BAD);
        Path test = write("t.test.yaml", """
                name: suite
                policies: [bad.yaml]
                cases:
                  - name: anything
                    request: {url: "https://github.com/"}
                    expect: {verdict: deny}
                """);
        CliRun run = run("policy", "test", test.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("policy is invalid").contains("/allowedDomains/0/binaries/0");
    }

    @Test
    void aReservationCaseComparesTheExcessAndRefusesNegativeAmounts() throws IOException {
        // 9.5 spent + 0.5 held + 1 cost = 11 over a limit of 10: over by 1, not by the 2 the file expects
        Path wrong = write("fit.test.yaml", """
                name: fit
                reservation:
                  - name: over by one
                    costUsd: "1"
                    limits: [{scope: project, limitUsd: "10", spentUsd: "9.5", heldUsd: "0.5"}]
                    expect: {fits: false, reason: does-not-fit, refused: [{scope: project, overUsd: "2"}]}
                """);
        CliRun failed = run("policy", "test", wrong.toString());
        assertThat(failed.status()).isEqualTo(1);
        assertThat(failed.out()).contains("[project over 2.000000] but got [project over 1.000000]");

        Path negative = write("negative.test.yaml", """
                name: fit
                reservation:
                  - name: a negative hold
                    costUsd: "1"
                    limits: [{scope: org, limitUsd: "10", spentUsd: "0", heldUsd: "-1"}]
                    expect: {fits: true}
                """);
        CliRun bad = run("policy", "test", negative.toString());
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains(negative + ":5:").contains("heldUsd must not be negative");
    }

    @Test
    void evalExplainsTheDecisionAndExitsOneOnDeny() throws IOException {
        Path policy = write("good.yaml", GOOD);
        CliRun allowed = run("policy", "eval", "--policy", policy.toString(), "--url", "https://api.github.com/repos/a/b");
        assertThat(allowed.status()).isZero();
        assertThat(allowed.out()).startsWith("allow upstream");
        CliRun denied = run("policy", "eval", "--policy", policy.toString(), "--url", "https://github.com/a/b.git",
                "--caller", "/usr/bin/curl", "--format", "json");
        assertThat(denied.status()).isEqualTo(1);
        assertThat(denied.out()).contains("\"reason\" : \"caller-not-listed\"");
    }

    @Test
    void evalRefusesABrokenPolicyWithItsProblems() throws IOException {
        CliRun run = run("policy", "eval", "--policy", write("bad.yaml", BAD).toString(), "--url", "https://github.com/");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("bad.yaml:5:");
    }

    @Test
    void evalReadsTheUrlAsTheProxyReadsATarget() throws IOException {
        Path policy = write("idn.yaml", """
                name: idn
                allowedDomains:
                  - {pattern: "straße.example", verdict: allow, transport: upstream}
                """);
        CliRun idn = run("policy", "eval", "--policy", policy.toString(), "--url", "https://straße.example/");
        assertThat(idn.status()).as(idn.err()).isZero();
        CliRun punycode = run("policy", "eval", "--policy", policy.toString(), "--url", "https://xn--strae-oqa.example/");
        assertThat(punycode.status()).isZero();
        CliRun port = run("policy", "eval", "--policy", policy.toString(), "--url", "https://straße.example:70000/");
        assertThat(port.status()).isEqualTo(2);
        assertThat(port.err()).contains("the port is not 1 to 65535");
        CliRun userinfo = run("policy", "eval", "--policy", policy.toString(), "--url", "https://u@straße.example/");
        assertThat(userinfo.status()).isEqualTo(2);
    }
}
