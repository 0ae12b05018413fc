package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.MutableClock;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Auto-stop, auto-start and auto-delete on a clock the test moves (no sleeps for the timers themselves): timers fire
 * once when several timer rounds race (the PostgreSQL lease every replica uses), follow an update without a restart,
 * and delete the volume with the sandbox.
 */
@MicronautTest(transactional = false)
class SandboxTimersTest extends PlatformTest {
    @Inject
    MutableClock clock;
    @Inject
    SandboxTimers timers;
    @Inject
    SandboxService sandboxes;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("test.clock", "mutable", "sandbox.timers.interval", "1h");
    }

    private JsonNode awaitState(String path, String token, String state) {
        return http.awaitState(path, token, state);
    }

    private int racingRounds(int index) throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            List<Callable<int[]>> rounds = List.of(timers::fire, timers::fire);
            int total = 0;
            for (Future<int[]> f : two.invokeAll(rounds)) {
                total += f.get()[index];
            }
            return total;
        } finally {
            two.shutdown();
        }
    }

    @Test
    void idleSandboxesStopOnceStartAgainOnUseAndStoppedOnesAreDeletedWithTheirVolume() throws Exception {
        Requires.bubblewrap();
        String owner = ownerToken();
        String org = createOrg(owner, "timers");
        String project = createProject(owner, org, "p");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "idle",
                "cpu", "250m", "memory", "128Mi", "autoStop", "30m", "autoDelete", "1d", "autoStart", true));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        UUID id = UUID.fromString(created.text("id"));
        awaitState(path, owner, "running");

        assertThat(racingRounds(0)).isZero();
        clock.advance(Duration.ofMinutes(31));
        assertThat(racingRounds(0)).isEqualTo(1);
        JsonNode stopped = awaitState(path, owner, "stopped");
        assertThat(stopped.path("stoppedBy").asText()).isEqualTo("auto-stop");

        // the next exec, terminal or private-port request starts it again (auto-start)
        assertThat(sandboxes.ensureRunning(id, Duration.ofSeconds(60)).state()).isEqualTo(SandboxState.RUNNING);

        // a timer changed by an update applies without a restart
        assertThat(http.patch(path, owner, Map.of("autoStop", "2h")).status()).isEqualTo(200);
        clock.advance(Duration.ofMinutes(31));
        assertThat(timers.fire()[0]).isZero();
        clock.advance(Duration.ofMinutes(90));
        assertThat(timers.fire()[0]).isEqualTo(1);
        awaitState(path, owner, "stopped");

        Path volume = dataDir.resolve("sandboxes").resolve(id.toString());
        assertThat(volume).exists();
        clock.advance(Duration.ofHours(23));
        assertThat(racingRounds(1)).isZero();
        clock.advance(Duration.ofHours(2));
        assertThat(racingRounds(1)).isEqualTo(1);
        assertThat(problem(http.get(path, owner), 404)).isEqualTo("not_found");
        // the runtime is deleted after the record, on the sandbox's worker
        Await.until("the sandbox's volume to be deleted", Await.LONG, () -> !Files.exists(volume));
        JsonNode trail = http.get("/v1/orgs/" + org + "/audit-trail?kind=sandbox", owner).body().path("items");
        List<String> actions = new ArrayList<>();
        trail.forEach(e -> actions.add(e.path("action").asText()));
        assertThat(actions).contains("auto-stop", "auto-delete");
    }

    @Test
    void activityIsWrittenAtMostOnceASecondAndTheIdleTimerCountsFromTheLastWritten() throws Exception {
        Requires.bubblewrap();
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "activity"), "p");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "busy",
                "cpu", "250m", "memory", "128Mi", "autoStop", "30m"));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        UUID id = UUID.fromString(created.text("id"));
        awaitState(path, owner, "running");
        try {
            clock.advance(Duration.ofSeconds(5));
            java.time.Instant first = sandboxes.ensureRunning(id, Duration.ofSeconds(60)).lastActivityAt();
            clock.advance(Duration.ofMillis(500));
            // half a second later: the activity already written stands, nothing is written
            assertThat(sandboxes.ensureRunning(id, Duration.ofSeconds(60)).lastActivityAt()).isEqualTo(first);
            clock.advance(Duration.ofSeconds(2));
            java.time.Instant later = sandboxes.ensureRunning(id, Duration.ofSeconds(60)).lastActivityAt();
            assertThat(later).isAfter(first);
            // the idle timer counts from the last activity written
            clock.advance(Duration.ofMinutes(30).minusSeconds(1));
            assertThat(timers.fire()[0]).isZero();
            clock.advance(Duration.ofSeconds(2));
            assertThat(timers.fire()[0]).isEqualTo(1);
            awaitState(path, owner, "stopped");
        } finally {
            assertThat(http.delete(path, owner).status()).isIn(202, 204);
        }
    }
}
