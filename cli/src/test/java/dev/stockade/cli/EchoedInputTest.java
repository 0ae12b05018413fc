package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the CLI's real entry point, input a message quotes is clipped to its first 80 characters and its
 * length, and the limit it exceeded is named (issue 25, item 14); a URL written as a domain pattern is named
 * as such with what to write instead (item 15).
 */
class EchoedInputTest {
    private static final String POLICY = "name: p\nallowedDomains: [{pattern: example.com, verdict: allow}]\n";
    private static final String HUGE_URL = "https://example.com/" + "a".repeat(125_000);

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void aHugeUrlGivenToEvalIsClippedAndTheLimitNamed() throws IOException {
        Path policy = Files.writeString(dir.resolve("p.yaml"), POLICY);
        CliRun run = run("policy", "eval", "--policy", policy.toString(), "--url", HUGE_URL);
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).hasSizeLessThan(400)
                .contains("url `https://example.com/" + "a".repeat(60) + "…` (125020 characters) is not a URL Stockade"
                        + " decides: the URL is 125020 characters long, over the limit of 65536");
        assertThat(run.out() + run.err()).doesNotContain("a".repeat(61));
    }

    @Test
    void aHugeHeaderGivenToEvalIsClipped() throws IOException {
        Path policy = Files.writeString(dir.resolve("p.yaml"), POLICY);
        CliRun run = run("policy", "eval", "--policy", policy.toString(), "--url", "https://example.com/",
                "--header", "h".repeat(125_000));
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).hasSizeLessThan(400).contains("`" + "h".repeat(80) + "…` (125000 characters)");
    }

    @Test
    void aHugeUrlInATestFileIsClipped() throws IOException {
        Path suite = Files.writeString(dir.resolve("suite.yaml"), "name: s\npolicies: [{name: p, allowedDomains: []}]\n"
                + "cases:\n  - name: c\n    request: {url: \"" + HUGE_URL + "\"}\n    expect: {verdict: deny}\n");
        CliRun run = run("policy", "test", suite.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out() + run.err()).hasSizeLessThan(600).contains("(125020 characters)")
                .contains("over the limit of 65536").doesNotContain("a".repeat(61));
    }

    @Test
    void lintNamesAUrlWrittenAsADomainPattern() throws IOException {
        Path policy = Files.writeString(dir.resolve("url.yaml"),
                "name: p\nallowedDomains:\n  - pattern: \"https://example.com\"\n    verdict: allow\n");
        CliRun run = run("policy", "lint", policy.toString());
        assertThat(run.status()).isNotZero();
        assertThat(run.out() + run.err()).contains("pattern-is-url")
                .contains("pattern `https://example.com` is a url, not a domain pattern")
                .contains("write `example.com` and put the scheme in `scheme: https`")
                .doesNotContain("is not a decimal number");
    }

    @Test
    void aHugeArgumentInAnOptionErrorIsClipped() {
        CliRun format = run("policy", "eval", "--url", "https://example.com/", "--format", "f".repeat(125_000));
        assertThat(format.status()).isEqualTo(2);
        assertThat(format.err()).hasSizeLessThan(600).contains("f".repeat(80) + "… (125000 characters)")
                .doesNotContain("f".repeat(81));
        CliRun unknown = run("policy", "lint", "p.yaml", "--" + "o".repeat(125_000));
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).hasSizeLessThan(600).contains("… (125002 characters)").doesNotContain("o".repeat(81));
    }
}
