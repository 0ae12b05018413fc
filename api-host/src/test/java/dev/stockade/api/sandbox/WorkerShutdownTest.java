package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A deletion still queued when the platform stops is carried out at shutdown: the record is gone, so nothing would
 * remove the sandbox's processes, network slot and volume at the next start. (The only test of its class: it stops
 * the context's sandbox workers.)
 */
@MicronautTest(transactional = false)
class WorkerShutdownTest extends PlatformTest {
    @Inject
    SandboxWorker worker;

    @Test
    void aDeletionQueuedAtShutdownStillRemovesTheRuntime() throws Exception {
        Requires.bubblewrap();
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "shutdown"), "p");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner,
                Map.of("name", "going", "cpu", "250m", "memory", "128Mi"));
        UUID id = UUID.fromString(created.text("id"));
        String path = "/v1/projects/" + project + "/sandboxes/" + id;
        // provisioning runs on worker threads
        Await.until("the sandbox to run", Await.LONG, () -> http.get(path, owner).text("state").equals("running"));
        Path volume = dataDir.resolve("sandboxes").resolve(id.toString());
        assertThat(volume).exists();
        worker.provision(id); // keeps the sandbox's chain busy, so the deletion below is still queued
        assertThat(http.delete(path, owner).status()).isEqualTo(204);
        worker.close();
        assertThat(volume).doesNotExist();
        try (Stream<Path> slots = Files.list(Path.of("/run/stockade/slots"))) {
            assertThat(slots.filter(p -> {
                try {
                    return Files.readString(p).contains(id.toString());
                } catch (java.io.IOException e) {
                    return false;
                }
            })).isEmpty();
        }
    }
}
