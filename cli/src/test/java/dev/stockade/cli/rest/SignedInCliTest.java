package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the REST commands' tests: a CLI with its own stored login (in a temp dir), signed in to the shared running
 * platform as the installation owner, and {@link #ok} for a command that must succeed with JSON output.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SignedInCliTest {
    // one per test class, made here: test classes run concurrently, and a static @TempDir is one field shared by
    // them all, so one class's cleanup deleted another's stored login mid-test
    protected Path dir;

    protected Cli cli;

    @BeforeAll
    void signIn() throws Exception {
        Platform platform = Platform.shared();
        dir = Files.createTempDirectory("stockade-cli-test");
        cli = new Cli(dir);
        Cli.Run login = cli.run("login", "--url", platform.url.toString(), "--token-file",
                platform.ownerTokenFile().toString());
        assertThat(login.status()).as(login.toString()).isZero();
    }

    @AfterAll
    void removeDir() throws IOException {
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** Runs a command with {@code --format json}; it must exit 0. Its JSON, or null for no output. */
    protected JsonNode ok(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--format");
        all.add("json");
        Cli.Run run = cli.run(all.toArray(String[]::new));
        assertThat(run.status()).as(String.join(" ", args) + "\n" + run).isZero();
        return run.out().isBlank() ? null : run.json();
    }
}
