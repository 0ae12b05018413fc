package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code policy lint --format github}: workflow commands GitHub reads, escaped by GitHub's own rules. */
class GithubAnnotationsTest {
    @TempDir
    Path dir;

    @Test
    void messagesEscapePercentCarriageReturnAndLineFeed() {
        assertThat(GithubAnnotations.data("50% a\r\nb")).isEqualTo("50%25 a%0D%0Ab");
        assertThat(GithubAnnotations.data("a:b,c")).isEqualTo("a:b,c");
    }

    @Test
    void propertiesAlsoEscapeColonAndComma() {
        assertThat(GithubAnnotations.property("C:/x,y%\n")).isEqualTo("C%3A/x%2Cy%25%0A");
    }

    @Test
    void aProblemWithPositionAndHelpIsOneCommandLine() {
        Problem p = new Problem("relative-binary", Severity.ERROR, "/allowedDomains/0/binaries/0", 5, 17,
                "binaries entry `git` must be an absolute path", "use `/usr/bin/git`");
        assertThat(GithubAnnotations.command("policies/a,b.yaml", p)).isEqualTo(
                "::error file=policies/a%2Cb.yaml,line=5,col=17,title=relative-binary::"
                        + "binaries entry `git` must be an absolute path%0Ahelp: use `/usr/bin/git`");
    }

    @Test
    void userTextCannotStartAnotherCommand() {
        Problem p = new Problem("unknown-key", Severity.WARNING, "", 0, 0, "unknown key `x\n::error::owned`", null);
        String line = GithubAnnotations.command("p.yaml", p);
        assertThat(line).doesNotContain("\n").startsWith("::warning file=p.yaml,title=unknown-key::");
        // GitHub reads a command only at the start of a line; the injected one stays inside this one, inert.
        assertThat(line).endsWith("unknown key `x\\x0a::error::owned`");
    }

    @Test
    void lintPrintsAnAnnotationPerProblemAndExitsOne() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), """
                name: broken
                allowedDomains:
                  - pattern: github.com
                    verdict: allow
                    binaries: [git]
                """);
        CliRun run = CliRun.of("policy", "lint", "--format", "github", bad.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out().lines().toList()).hasSize(1).first().asString()
                .startsWith("::error file=" + bad + ",line=5,col=")
                .contains(",title=");
    }

    @Test
    void aCleanPolicyPrintsNothing() throws IOException {
        Path good = Files.writeString(dir.resolve("good.yaml"), "name: p\nallowedDomains: []\n");
        CliRun run = CliRun.of("policy", "lint", "--format", "github", good.toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEmpty();
    }
}
