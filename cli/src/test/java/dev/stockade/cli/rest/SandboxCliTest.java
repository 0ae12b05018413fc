package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code stockade sandbox ...} against the running platform: create from YAML, update, revisions, stop, delete. */
class SandboxCliTest extends SignedInCliTest {


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
        Await.until("the sandbox to run", Await.LONG,
                () -> ok("sandbox", "get", "--project", project, id).path("state").asText().equals("running"));
        Cli.Run exec = cli.run("sandbox", "exec", "--project", project, id, "--", "sh", "-c",
                "echo hi from $(pwd); echo warn >&2; exit 7");
        assertThat(exec.status()).as(exec.toString()).isEqualTo(7);
        assertThat(exec.out()).isEqualTo("hi from /workspace\n");
        assertThat(exec.err()).isEqualTo("warn\n");
        try (java.io.PipedOutputStream typing = new java.io.PipedOutputStream()) {
            // a keyboard nobody types on: the command's end, not this side's next keystroke, ends the exec
            Cli.Run waiting = cli.run(new java.io.PipedInputStream(typing), "sandbox", "exec",
                    "--project", project, id, "-i", "--", "sh", "-c", "exit 3");
            assertThat(waiting.status()).as(waiting.toString()).isEqualTo(3);
        }
        Cli.Run onTty = cli.run("sandbox", "exec", "--project", project, id, "-t", "--", "sh", "-c",
                "test -t 1 && echo on-a-tty; stty size");
        assertThat(onTty.status()).as(onTty.toString()).isZero();
        assertThat(onTty.out()).isEqualTo("on-a-tty\r\n24 80\r\n"); // not a terminal here: 80x24
        Cli.Run shell = cli.run(new java.io.ByteArrayInputStream("test -t 0 && echo shell-on-a-tty; exit 5\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)), "sandbox", "shell", "--project", project, id);
        assertThat(shell.status()).as(shell.toString()).isEqualTo(5);
        assertThat(shell.out()).contains("shell-on-a-tty\r\n");
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
