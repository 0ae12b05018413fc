package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A governance event is re-enforced once across replicas: every replica hears it, the first to claim its id
 * re-publishes the sandboxes it reaches (two racing claims stand in for two replicas).
 */
@MicronautTest(transactional = false)
class ReenforceOnceTest extends PlatformTest {
    @Inject
    SandboxService sandboxes;
    @Inject
    EnforcementStore enforcement;

    @Test
    void theFirstReplicaToClaimAnEventRepublishesAndTheOthersSkipIt() throws Exception {
        String owner = ownerToken();
        UUID org = UUID.fromString(createOrg(owner, "once"));
        String project = createProject(owner, org.toString(), "p");
        assertThat(http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "s", "cpu", "250m",
                "memory", "128Mi")).status()).isEqualTo(201);
        long event = 9_000_000_000L + System.nanoTime() % 1_000_000;
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            Callable<Boolean> claim = () -> sandboxes.reenforce(event, org, "policy", project, null);
            int did = 0;
            for (Future<Boolean> f : two.invokeAll(List.of(claim, claim))) {
                did += f.get() ? 1 : 0;
            }
            assertThat(did).as("exactly one of two racing replicas re-enforces").isEqualTo(1);
        } finally {
            two.shutdown();
        }
        assertThat(sandboxes.reenforce(event, org, "policy", project, null)).as("a late replica skips it").isFalse();
        long before = latest();
        assertThat(sandboxes.reenforce(event + 1, org, "policy", project, null)).as("the next event is new").isTrue();
        assertThat(latest()).as("an unchanged set keeps its version: no proxy is sent it again").isEqualTo(before);
        assertThat(sandboxes.reenforce(event + 2, org, "binding", project, null)).as("bindings reach no sandbox").isFalse();
    }

    private long latest() {
        List<EnforcementStore.ListedChange> all = enforcement.changesAfter(0, 100_000);
        return all.isEmpty() ? 0 : all.get(all.size() - 1).version();
    }
}
