package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every command on what a careless or malicious pull request would contain: a clear unreadable-input
 * message (exit 2) or a problem with file, line and column (exit 1), never a stack trace.
 */
class HostileInputTest {
    private static final String GRAPHQL_POLICY = """
            name: gh
            allowedDomains:
              - pattern: api.github.com
                verdict: allow
                rules:
                  - path: /graphql
                    graphql:
                      operationType: query
                      fields: [repository]
                      arguments: [{field: repository, pointer: /owner, glob: acme}]
            """;

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private Path sparse(String name) throws IOException {
        Path file = dir.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(3L << 30);
        }
        return file;
    }

    private Path zeroLink(String name) throws IOException {
        return Files.createSymbolicLink(dir.resolve(name), Path.of("/dev/zero"));
    }

    private static void refusedClearly(CliRun run, String why) {
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("cannot read").contains(why);
        assertThat(run.all()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lint", "describe"})
    void aHugeSparseFileIsRefusedBeforeReading(String command) throws IOException {
        refusedClearly(run("policy", command, sparse("p.yaml").toString()), "over the limit of 1048576 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lint", "describe"})
    void aLinkToDevZeroIsRefused(String command) throws IOException {
        refusedClearly(run("policy", command, zeroLink("p.yaml").toString()), "not a regular file");
    }

    @Test
    void everyFileOptionOfEvalAndEffectiveUsesTheBoundedReader() throws IOException {
        Path good = Files.writeString(dir.resolve("good.yaml"), "name: p\n");
        Path huge = sparse("huge.yaml");
        Path zero = zeroLink("zero.yaml");
        refusedClearly(run("policy", "eval", "--policy", huge.toString(), "--url", "https://a.com/"), "over the limit");
        refusedClearly(run("policy", "eval", "--policy", good.toString(), "--ceiling", zero.toString(),
                "--url", "https://a.com/"), "not a regular file");
        refusedClearly(run("policy", "effective", "--policy", good.toString(), "--install", huge.toString()),
                "over the limit");
        refusedClearly(run("policy", "effective", "--policy", good.toString(), "--install", zero.toString()),
                "not a regular file");
    }

    @Test
    void invalidUtf8NamesItsPosition() throws IOException {
        Path file = Files.write(dir.resolve("p.yaml"), new byte[] {'n', 'a', 'm', 'e', ':', ' ', 'p', '\n',
                'd', ':', ' ', (byte) 0xc3, '(', '\n'});
        CliRun run = run("policy", "lint", file.toString());
        refusedClearly(run, "p.yaml:2:4: invalid UTF-8 (byte 0xc3");
        assertThat(run.err()).doesNotContain("Input length");
    }

    @Test
    void aMissingFileSaysItIsMissing() {
        refusedClearly(run("policy", "lint", dir.resolve("nope.yaml").toString()), "nope.yaml: no such file");
    }

    @Test
    void theTestRunnerNeverReadsAHugeOrEndlessFileOfAFolder() throws IOException {
        Files.writeString(dir.resolve("good.yaml"), "name: p\n");
        sparse("big.yaml");
        zeroLink("zero.yaml");
        CliRun run = run("policy", "test", dir.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("big.yaml: cannot read: file has 3221225472 bytes");
        // A link to a device is not a regular file: the folder walk skips it and never opens it.
        assertThat(run.all()).doesNotContain("Exception");
    }

    @Test
    void aControlCharacterInAValueCannotForgeACiLine() throws IOException {
        Path file = Files.writeString(dir.resolve("p.yaml"),
                "name: p\nallowedDomains:\n  - {pattern: x.com, verdict: allow,"
                        + " binaries: [\"/usr/bin/x\\n::error file=a::forged\\e[31m\"]}\n");
        CliRun run = run("policy", "lint", file.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out().lines()).noneMatch(l -> l.startsWith("::"));
        assertThat(run.out()).doesNotContain("\u001b").contains("\\x0a::error");
    }

    @Test
    void aNulIsReportedWhereItIs() throws IOException {
        Path file = Files.writeString(dir.resolve("p.yaml"), "name: p\ndescription: \"abc\u0000\"\n");
        CliRun run = run("policy", "lint", file.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).contains("p.yaml:2:18: error[control-character]");
    }

    @Test
    void anInstallFileIsReadLikeATestFilesInstallMapping() throws IOException {
        Path policy = Files.writeString(dir.resolve("p.yaml"), "name: p\n");
        Path duplicate = Files.writeString(dir.resolve("dup.yaml"), "providers: [bedrock]\nproviders: [openai]\n");
        CliRun dup = run("policy", "effective", "--policy", policy.toString(), "--install", duplicate.toString());
        assertThat(dup.status()).isEqualTo(2);
        assertThat(dup.err()).contains("dup.yaml:2:1: key `providers` appears more than once");
        Path unknown = Files.writeString(dir.resolve("unknown.yaml"), "providers: [bedrock]\nbedrockAmbiant: true\n");
        CliRun typo = run("policy", "effective", "--policy", policy.toString(), "--install", unknown.toString());
        assertThat(typo.status()).isEqualTo(2);
        assertThat(typo.err()).contains("unknown.yaml:2:").contains("bedrockAmbiant");
        Path yes = Files.writeString(dir.resolve("yes.yaml"), "bedrockAmbient: yes\n");
        CliRun yaml11 = run("policy", "effective", "--policy", policy.toString(), "--install", yes.toString());
        assertThat(yaml11.status()).isEqualTo(2);
        assertThat(yaml11.err()).contains("yes.yaml:1:");
    }

    @Test
    void duplicateKeysInGraphqlVariablesDenyAsTheEngineWould() throws IOException {
        Path policy = Files.writeString(dir.resolve("gh.yaml"), GRAPHQL_POLICY);
        String query = "query($o: String) { repository(owner: $o) { id } }";
        CliRun once = run("policy", "eval", "--policy", policy.toString(), "--url", "https://api.github.com/graphql",
                "--graphql-query", query, "--graphql-variables", "{\"o\": \"acme\"}");
        assertThat(once.status()).as(once.all()).isZero();
        CliRun twice = run("policy", "eval", "--policy", policy.toString(), "--url", "https://api.github.com/graphql",
                "--graphql-query", query, "--graphql-variables", "{\"o\": \"evil\", \"o\": \"acme\"}");
        assertThat(twice.status()).as(twice.all()).isEqualTo(1);
        assertThat(twice.out()).contains("deny");
    }
}
