package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** {@code stockade sandbox ...} against the running platform: create from YAML, update, revisions, stop, delete. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SandboxCliTest {
    @TempDir
    static Path dir;

    private Cli cli;

    @BeforeAll
    void signIn() throws Exception {
        Platform platform = Platform.shared();
        cli = new Cli(dir);
        assertThat(cli.run("login", "--url", platform.url.toString(), "--token-file",
                platform.ownerTokenFile().toString()).status()).isZero();
    }

    private JsonNode ok(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--format");
        all.add("json");
        Cli.Run run = cli.run(all.toArray(String[]::new));
        assertThat(run.status()).as(String.join(" ", args) + "\n" + run).isZero();
        return run.out().isBlank() ? null : run.json();
    }

    @Test
    void sandboxesAreAuthoredFromYamlAndManagedFromTheCli() throws Exception {
        String org = ok("orgs", "create", "sbx-cli").path("id").asText();
        String project = ok("projects", "create", "--org", org, "app").path("id").asText();
        Path file = Files.writeString(dir.resolve("sandbox.yaml"), """
                name: cli-box
                cpu: 250m
                memory: 128Mi
                autoStop: 30m
                policy:
                  name: inline
                  allowedDomains:
                    - pattern: api.github.com
                      verdict: allow
                """);
        String id = ok("sandbox", "create", "--project", project, "-f", file.toString()).path("id").asText();
        assertThat(ok("sandbox", "list", "--project", project).path("items")).hasSize(1);
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "name: x\ncpu: 99\nmemory: 128Mi\n");
        Cli.Run refused = cli.run("sandbox", "create", "--project", project, "-f", bad.toString());
        assertThat(refused.status()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("/cpu", "above this installation's limit");

        Path update = Files.writeString(dir.resolve("update.yaml"), "autoStop: 2h\nmemory: 256Mi\n");
        assertThat(ok("sandbox", "update", "--project", project, id, "-f", update.toString())
                .path("activeRevision").asInt()).isEqualTo(2);
        assertThat(ok("sandbox", "revisions", "--project", project, id).path("items")).hasSize(2);
        assertThat(ok("sandbox", "effective-policy", "--project", project, id).path("current").path("domains")
                .toString()).contains("api.github.com");
        ok("sandbox", "stop", "--project", project, id);
        assertThat(ok("sandbox", "promote", "--project", project, id, "1").path("activeRevision").asInt())
                .isEqualTo(1);
        assertThat(cli.run("sandbox", "delete", "--project", project, id).status()).isZero();
        assertThat(cli.run("sandbox", "get", "--project", project, id).status()).isEqualTo(1);
    }
}
