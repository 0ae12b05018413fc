package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stockade completion bash}: the script loads in a real bash and completes commands, options and values. */
class CompletionTest {
    @TempDir
    Path dir;

    /** What bash completes for the words typed so far (the last word is the one being completed). */
    private String complete(Path script, String typed) throws IOException, InterruptedException {
        String program = "source " + script + "\n"
                + "COMP_LINE='" + typed + "'; COMP_POINT=${#COMP_LINE}\n"
                + "read -r -a COMP_WORDS <<< \"$COMP_LINE\"\n"
                + "[[ \"$COMP_LINE\" == *' ' ]] && COMP_WORDS+=('')\n"
                + "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                // call what bash would: the function `complete -p stockade` registered, with command, word, previous word
                + "fn=$(complete -p stockade | sed -E 's/.*-F ([^ ]+).*/\\1/')\n"
                + "$fn stockade \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\"\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        Process bash = new ProcessBuilder("bash", "--norc", "-c", program)
                // compopt complains outside a real completion; only the candidates on standard output matter
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(bash.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void theBashScriptCompletesSubcommandsOptionsAndValues() throws Exception {
        CliRun run = CliRun.of("completion", "bash");
        assertThat(run.status()).isZero();
        Path script = Files.writeString(dir.resolve("stockade-completion.bash"), run.out());
        assertThat(complete(script, "stockade pol").lines().toList()).contains("policy", "policies").doesNotContain("orgs");
        assertThat(complete(script, "stockade policy l").lines().toList()).containsExactly("lint");
        assertThat(complete(script, "stockade policy lint --for").lines().toList()).containsExactly("--format");
        assertThat(complete(script, "stockade policy lint --format ").lines().toList())
                .containsExactlyInAnyOrder("text", "json", "sarif", "github");
        assertThat(complete(script, "stockade schema ").lines().toList())
                .containsExactlyInAnyOrder("policy", "test", "sandbox");
        // commands added later are picked up from the tree with no change to the script's source
        assertThat(complete(script, "stockade sandbox c").lines().toList()).containsExactlyInAnyOrder("copy", "create");
        assertThat(complete(script, "stockade sandbox ru").lines().toList()).containsExactly("run");
        assertThat(complete(script, "stockade sandbox run --r").lines().toList()).containsExactly("--rm");
    }

    @Test
    void zshGetsTheSameScriptWhichLoadsBashcompinitItself() {
        CliRun zsh = CliRun.of("completion", "zsh");
        assertThat(zsh.status()).isZero();
        assertThat(zsh.out()).isEqualTo(CliRun.of("completion", "bash").out()).contains("bashcompinit");
    }

    @Test
    void anUnknownShellIsAUsageError() {
        CliRun run = CliRun.of("completion", "fish");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("fish").doesNotContain("Exception");
        assertThat(List.of(run.out())).containsExactly("");
    }
}
