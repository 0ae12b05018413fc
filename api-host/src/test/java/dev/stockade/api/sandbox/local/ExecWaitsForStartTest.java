package dev.stockade.api.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.api.support.SandboxShell;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * An exec opened on a sandbox that is still being created waits for it to start and then runs (a client need not
 * poll for {@code running} first); one whose sandbox is stopped meanwhile is refused with the state it ended in. The
 * real local provisioner's operations are held back while the exec is opened, so the sandbox is surely not running.
 */
@MicronautTest(transactional = false)
class ExecWaitsForStartTest extends PlatformTest {
    /** How long an exec that does not wait would take to be refused: far more than the handshake and one look-up. */
    private static final long REFUSAL_WINDOW_MS = 1_500;

    @Inject
    LocalProvisioner provisioner;

    @Test
    void anExecOnACreatingSandboxWaitsForItsStartThenRuns() throws Exception {
        Requires.bubblewrap();
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "wait"), "p");
        SandboxShell shell = new SandboxShell(server.getPort(), owner);
        String path;
        CompletableFuture<String> exec;
        try (LocalProvisioner.Hold held = provisioner.holdOperations()) {
            path = create(owner, project, "early");
            assertThat(http.get(path, owner).text("state")).isIn("creating", "starting");
            exec = CompletableFuture.supplyAsync(() -> run(shell, path, "echo ran as $(id -u) in $PWD"));
            // refused at once before this change (close 4409): still open, waiting, while the start is held
            assertThatThrownBy(() -> exec.get(REFUSAL_WINDOW_MS, TimeUnit.MILLISECONDS))
                    .isInstanceOf(TimeoutException.class);
            assertThat(http.get(path, owner).text("state")).isIn("creating", "starting");
        }
        assertThat(exec.get(60, TimeUnit.SECONDS)).isEqualTo("ran as 1000 in /workspace\n");
        assertThat(http.get(path, owner).text("state")).isEqualTo("running");
    }

    @Test
    void anExecWaitingOnASandboxStoppedMeanwhileIsRefusedWithItsState() throws Exception {
        Requires.bubblewrap();
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "stopped"), "p");
        SandboxShell shell = new SandboxShell(server.getPort(), owner);
        try (LocalProvisioner.Hold held = provisioner.holdOperations()) {
            String path = create(owner, project, "stopped-early");
            CompletableFuture<String> exec = CompletableFuture.supplyAsync(() -> run(shell, path, "true"));
            assertThatThrownBy(() -> exec.get(REFUSAL_WINDOW_MS, TimeUnit.MILLISECONDS))
                    .isInstanceOf(TimeoutException.class);
            Http.Response stopped = http.post(path + "/stop", owner, Map.of());
            assertThat(stopped.status()).as(stopped.raw()).isEqualTo(202);
            // the waiting exec sees the stop without the held start ending
            assertThatThrownBy(() -> exec.get(30, TimeUnit.SECONDS))
                    .hasStackTraceContaining("closed 4409 the sandbox is stopped");
        }
    }

    private String create(String owner, String project, String name) {
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner,
                Map.of("name", name, "cpu", "250m", "memory", "128Mi"));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return "/v1/projects/" + project + "/sandboxes/" + created.text("id");
    }

    private static String run(SandboxShell shell, String path, String script) {
        try {
            return shell.run(path, script);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
