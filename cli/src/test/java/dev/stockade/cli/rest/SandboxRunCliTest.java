package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code stockade sandbox run} against the running platform and real bubblewrap sandboxes: create, wait, run, exit
 * with the command's status, {@code --rm} deleting the sandbox, standard input passed through, a kept sandbox named.
 */
class SandboxRunCliTest extends SignedInCliTest {
    private static final Pattern ID = Pattern.compile("sandbox ([0-9a-f-]{36})");
    private String project;

    @BeforeAll
    void project() {
        String org = ok("orgs", "create", "run-cli").path("id").asText();
        project = ok("projects", "create", "--org", org, "app").path("id").asText();
    }

    private static String idIn(Cli.Run run) {
        Matcher m = ID.matcher(run.err());
        assertThat(m.find()).as(run.toString()).isTrue();
        return m.group(1);
    }

    @Test
    void runRmExitsWithTheCommandsStatusAndLeavesNoSandbox() {
        Cli.Run run = cli.run("sandbox", "run", "--project", project, "--rm", "--name", "rm-box", "--cpu", "250m",
                "--memory", "128Mi", "--", "sh", "-c", "echo out; echo err >&2; exit 3");
        assertThat(run.status()).as(run.toString()).isEqualTo(3);
        assertThat(run.out()).isEqualTo("out\n");
        assertThat(run.err()).contains("err\n", "deleted when the command ends");
        String id = idIn(run);
        assertThat(cli.run("sandbox", "get", "--project", project, id).status()).isEqualTo(Exit.REFUSED);
        assertThat(ok("sandbox", "list", "--project", project).path("items").toString()).doesNotContain(id);
    }

    @Test
    void standardInputReachesTheCommand() {
        byte[] input = "line one\nline two\n".getBytes(StandardCharsets.UTF_8);
        Cli.Run run = cli.run(new ByteArrayInputStream(input), "sandbox", "run", "--project", project, "--rm",
                "--cpu", "250m", "--memory", "128Mi", "-i", "--", "sh", "-c", "wc -l; exit 0");
        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.out().strip()).isEqualTo("2");
    }

    @Test
    void withoutRmTheSandboxStaysRunningWithTheDefaultAutoStopAndItsIdOnStandardError() {
        Cli.Run run = cli.run("sandbox", "run", "--project", project, "--cpu", "250m", "--memory", "128Mi",
                "--", "sh", "-c", "echo kept > /workspace/mark");
        assertThat(run.status()).as(run.toString()).isZero();
        String id = idIn(run);
        assertThat(run.err()).contains("kept", "sandbox shell --project " + project + " " + id);
        var sandbox = ok("sandbox", "get", "--project", project, id);
        assertThat(sandbox.path("state").asText()).isEqualTo("running");
        assertThat(sandbox.path("name").asText()).startsWith("run-");
        assertThat(sandbox.path("autoStop").asText()).isEqualTo(SandboxRunCommand.DEFAULT_AUTO_STOP);
        Cli.Run mark = cli.run("sandbox", "exec", "--project", project, id, "--", "cat", "/workspace/mark");
        assertThat(mark.out()).isEqualTo("kept\n");
        assertThat(cli.run("sandbox", "delete", "--project", project, id).status()).isZero();
    }

    @Test
    void aFileDescribesTheSandboxAndExcludesTheFlags() throws Exception {
        Path file = Files.writeString(dir.resolve("run.yaml"), "name: from-file\ncpu: 250m\nmemory: 128Mi\n");
        Cli.Run run = cli.run("sandbox", "run", "--project", project, "-f", file.toString(), "--rm", "--",
                "sh", "-c", "exit 0");
        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(ok("sandbox", "list", "--project", project).path("items").toString()).doesNotContain("from-file");

        Cli.Run both = cli.run("sandbox", "run", "--project", project, "-f", file.toString(), "--cpu", "1", "--",
                "true");
        assertThat(both.status()).isEqualTo(Exit.USAGE);
        assertThat(both.err()).contains("not both");
    }

    @Test
    void anInterruptedRunRmStillDeletesItsSandbox() throws Exception {
        // a real `stockade` process, ended by a signal as Ctrl-C ends it (SIGTERM runs the same shutdown hooks)
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                "dev.stockade.cli.Stockade", "sandbox", "run", "--project", project, "--rm", "--name", "interrupted",
                "--cpu", "250m", "--memory", "128Mi", "--", "sh", "-c", "echo started; exec sleep 300")
                .redirectErrorStream(true);
        pb.environment().put("STOCKADE_URL", Platform.shared().url.toString());
        pb.environment().put("STOCKADE_TOKEN", Platform.shared().ownerToken());
        pb.environment().put("STOCKADE_CONFIG", dir.resolve("none.json").toString());
        Process p = pb.start();
        try (var lines = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            do {
                line = lines.readLine(); // the command prints `started` once it runs in the sandbox
            } while (line != null && !line.equals("started"));
            assertThat(line).as("the run's output ended before the command started").isEqualTo("started");
            assertThat(ok("sandbox", "list", "--project", project).path("items").toString()).contains("interrupted");
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(ok("sandbox", "list", "--project", project).path("items").toString()).doesNotContain("interrupted");
    }

    @Test
    void aSandboxThePlatformRefusesRunsNothing() {
        Cli.Run run = cli.run("sandbox", "run", "--project", project, "--cpu", "99", "--rm", "--", "true");
        assertThat(run.status()).as(run.toString()).isEqualTo(Exit.REFUSED);
        assertThat(run.err()).contains("/cpu").doesNotContain("Exception");
    }
}
