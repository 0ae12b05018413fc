package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of the REST commands' tests: a CLI with its own stored login (in a temp dir), signed in to the shared running
 * platform as the installation owner, and {@link #ok} for a command that must succeed with JSON output.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SignedInCliTest {
    @TempDir
    static Path dir;

    protected Cli cli;

    @BeforeAll
    void signIn() throws Exception {
        Platform platform = Platform.shared();
        cli = new Cli(dir);
        Cli.Run login = cli.run("login", "--url", platform.url.toString(), "--token-file",
                platform.ownerTokenFile().toString());
        assertThat(login.status()).as(login.toString()).isZero();
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
