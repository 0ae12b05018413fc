package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pre-commit hooks (.pre-commit-hooks.yaml) run commands this CLI has, with options it takes, on the files pre-commit
 * would hand them: each hook's command line is run here as pre-commit runs it (entry, args, then file names).
 */
class PreCommitHooksTest {
    private static final Path HOOKS = Path.of("../.pre-commit-hooks.yaml");

    @TempDir
    Path dir;

    private static JsonNode hooks() throws IOException {
        ParsedDocument doc = Documents.parse(HOOKS.toString(), Files.readString(HOOKS));
        assertThat(doc.problems()).isEmpty();
        return doc.root();
    }

    private static JsonNode hook(String id) throws IOException {
        for (JsonNode hook : hooks()) {
            if (hook.path("id").asText().equals(id)) {
                return hook;
            }
        }
        throw new AssertionError("no hook " + id);
    }

    /** The command line pre-commit runs: the entry without the launcher, the hook's args, then the files. */
    private static String[] commandLine(JsonNode hook, Path... files) {
        List<String> words = new ArrayList<>(Arrays.asList(hook.path("entry").asText().split(" ")));
        assertThat(words.remove(0)).isEqualTo("stockade");
        hook.path("args").forEach(a -> words.add(a.asText()));
        if (hook.path("pass_filenames").asBoolean(true)) {
            Arrays.stream(files).map(Path::toString).forEach(words::add);
        }
        return words.toArray(String[]::new);
    }

    @Test
    void everyHookUsesTheLauncherScript() throws IOException {
        assertThat(hooks()).hasSize(3);
        for (JsonNode hook : hooks()) {
            assertThat(hook.path("language").asText()).isEqualTo("script");
            assertThat(Files.isExecutable(Path.of("..", hook.path("entry").asText().split(" ")[0]))).isTrue();
        }
    }

    @Test
    void lintAndFmtHooksMatchPolicyFilesAndRefuseBrokenOnes() throws IOException {
        Path policies = Files.createDirectories(dir.resolve("policies"));
        Path good = Files.writeString(policies.resolve("good.yaml"), "name: p\nallowedDomains: []\n");
        Path messy = Files.writeString(policies.resolve("messy.yaml"), "allowedDomains: []\nname:   p\n");
        Path bad = Files.writeString(policies.resolve("bad.yaml"), "name: p\nallowDomains: []\n");
        JsonNode lint = hook("stockade-policy-lint");
        JsonNode fmt = hook("stockade-policy-fmt");
        for (Path p : List.of(good, messy, bad)) {
            assertThat(Pattern.compile(lint.path("files").asText()).matcher(dir.relativize(p).toString()).find()).isTrue();
            assertThat(Pattern.compile(fmt.path("files").asText()).matcher(dir.relativize(p).toString()).find()).isTrue();
        }
        assertThat(CliRun.of(commandLine(lint, good)).status()).isZero();
        assertThat(CliRun.of(commandLine(lint, good, bad)).status()).isEqualTo(1);
        assertThat(CliRun.of(commandLine(fmt, good)).status()).isZero();
        CliRun unformatted = CliRun.of(commandLine(fmt, messy));
        assertThat(unformatted.status()).isEqualTo(1);
        assertThat(unformatted.out()).contains("+++ " + messy + " (formatted)");
    }

    @Test
    void theTestHookRunsTheFoldersOfItsArgs() throws IOException {
        JsonNode test = hook("stockade-policy-test");
        assertThat(test.path("pass_filenames").asBoolean(true)).isFalse();
        String[] line = commandLine(test);
        assertThat(line).containsExactly("policy", "test", "tests/");
        Path tests = Files.createDirectories(dir.resolve("tests"));
        Path file = Files.writeString(tests.resolve("deny.yaml"), """
                name: default deny
                policies: [{name: p}]
                cases:
                  - name: nothing is reachable
                    request: {url: "https://example.com/"}
                    expect: {verdict: deny}
                """);
        line[line.length - 1] = tests.toString();
        CliRun run = CliRun.of(line);
        assertThat(run.status()).as(run.all()).isZero();
        assertThat(run.out()).contains("1 passed, 0 failed");
        Files.writeString(file, Files.readString(file).replace("verdict: deny", "verdict: allow"));
        assertThat(CliRun.of(line).status()).isEqualTo(1);
    }
}
