package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stockade policy fmt} end to end on real files: output, --check, -w, refusals and exit statuses. */
class FmtCommandTest {
    /** Keys out of order, flow and block mixed, needless and single quotes, comments everywhere. */
    private static final String MESSY = """
            # github access for the build agent

            allowedDomains:   # first match wins
              - {verdict: allow, pattern: 'api.github.com', rules: [{path: "/repos/**", method: GET}]}  # reads
              # git itself
              - binaries:
                  - /usr/bin/git
                transport: upstream
                verdict: allow
                pattern: "github.com"
            description: 'build agent: git and the REST API'
            name: github   # the policy's name
            env:
              ZED: "1"
              ALPHA: 'yes'
            """;
    /** The same policy formatted, written out by hand from docs/semantics.md ("policy fmt"). */
    private static final String CANONICAL = """
            # github access for the build agent

            name: github # the policy's name
            description: "build agent: git and the REST API"
            # first match wins
            allowedDomains:
              - pattern: api.github.com # reads
                verdict: allow
                rules:
                  - method: GET
                    path: /repos/**
              - # git itself
                pattern: github.com
                verdict: allow
                transport: upstream
                binaries: [/usr/bin/git]
            env:
              ZED: "1"
              ALPHA: "yes"
            """;

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void printsTheCanonicalFormAndLeavesTheFileAlone() throws IOException {
        Path file = write("github.yaml", MESSY);
        CliRun run = CliRun.of("policy", "fmt", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(CANONICAL);
        assertThat(Files.readString(file)).isEqualTo(MESSY);
    }

    @Test
    void checkPrintsAUnifiedDiffAndExitsOneWithoutWriting() throws IOException {
        Path file = write("github.yaml", MESSY);
        CliRun run = CliRun.of("policy", "fmt", "--check", file.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).startsWith("--- " + file + " (as written)\n+++ " + file + " (formatted)\n@@ ")
                .contains("-name: github   # the policy's name", "+name: github # the policy's name",
                        "+    binaries: [/usr/bin/git]");
        assertThat(Files.readString(file)).isEqualTo(MESSY);
    }

    @Test
    void checkOfAFormattedFileIsSilentAndExitsZero() throws IOException {
        CliRun run = CliRun.of("policy", "fmt", "--check", write("github.yaml", CANONICAL).toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEmpty();
    }

    @Test
    void writeRewritesInPlaceAndAgainChangesNothing() throws IOException {
        Path file = write("github.yaml", MESSY);
        CliRun first = CliRun.of("policy", "fmt", "-w", file.toString());
        assertThat(first.status()).isZero();
        assertThat(first.err()).contains("formatted " + file);
        assertThat(Files.readString(file)).isEqualTo(CANONICAL);
        CliRun again = CliRun.of("policy", "fmt", "-w", file.toString());
        assertThat(again.status()).isZero();
        assertThat(again.err()).isEmpty();
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("github.yaml");
        }
    }

    @Test
    void aFolderIsSearchedAndCheckNamesEveryUnformattedFile() throws IOException {
        Files.createDirectories(dir.resolve("team"));
        write("team/a.yaml", MESSY);
        write("team/b.yml", CANONICAL);
        write("team/notes.txt", "not yaml: [");
        CliRun run = CliRun.of("policy", "fmt", "--check", dir.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).contains("a.yaml (as written)").doesNotContain("b.yml", "notes.txt");
    }

    @Test
    void aFileThatDoesNotParseIsReportedWithACaretAndNeverRewritten() throws IOException {
        String broken = "name: x\ndescription: a: b\nenv: {}\n";
        Path file = write("broken.yaml", broken);
        CliRun run = CliRun.of("policy", "fmt", "-w", file.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains(file + ":").contains("error[").contains("^").doesNotContain("Exception");
        assertThat(Files.readString(file)).isEqualTo(broken);
    }

    @Test
    void duplicateKeysAreTheReadersErrorAndTheFileStays() throws IOException {
        Path file = write("dup.yaml", "name: a\nname: b\n");
        CliRun run = CliRun.of("policy", "fmt", "-w", file.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains(file + ":2:1").contains("duplicate-key");
        assertThat(Files.readString(file)).isEqualTo("name: a\nname: b\n");
    }

    @Test
    void anchorsAreRefusedWithTheirPosition() throws IOException {
        Path file = write("anchor.yaml", "name: x\ndescription: &d text\n");
        CliRun run = CliRun.of("policy", "fmt", file.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains(file + ":2:14: error[yaml-alias]: yaml anchor `&d` is not supported");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void checkAndWriteTogetherIsAUsageError() throws IOException {
        CliRun run = CliRun.of("policy", "fmt", "--check", "-w", write("p.yaml", CANONICAL).toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--check and -w exclude each other");
    }

    @Test
    void jsonAndMissingFilesExitTwo() throws IOException {
        CliRun json = CliRun.of("policy", "fmt", write("p.json", "{\"name\": \"x\"}").toString());
        assertThat(json.status()).isEqualTo(2);
        assertThat(json.err()).contains("fmt formats yaml policy files");
        CliRun missing = CliRun.of("policy", "fmt", dir.resolve("nope.yaml").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file or folder");
    }

    @Test
    void aControlCharacterInAFileIsEscapedInTheDiff() throws IOException {
        Path file = write("c.yaml", "name: 'x'\ndescription: \"a\\u001b[31mb\"\n");
        CliRun run = CliRun.of("policy", "fmt", "--check", file.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).doesNotContain("\u001b");
    }
}
