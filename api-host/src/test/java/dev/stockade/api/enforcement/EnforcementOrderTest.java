package dev.stockade.api.enforcement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Versions become visible in order: many writers publish at once while a reader follows "after the last version it
 * saw", as the proxy feed and the in-process proxy do; the reader must see every sandbox. (Before writers were
 * serialised, a transaction that drew version 100 and committed after the one that drew 101 was skipped for ever: a
 * thousand-sandbox benchmark lost 21 sets.)
 */
@MicronautTest(transactional = false)
class EnforcementOrderTest extends PlatformTest {
    @Inject
    EnforcementStore store;
    @Inject
    TransactionOperations<Connection> tx;

    @Test
    void aFollowerSeesEverySandboxWhenWritersCommitConcurrently() throws Exception {
        String owner = ownerToken();
        UUID org = UUID.fromString(createOrg(owner, "order"));
        UUID project = UUID.fromString(createProject(owner, org.toString(), "p"));
        int writers = 8;
        int each = 40;
        Set<UUID> written = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Set<UUID> seen = new HashSet<>();
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> jobs = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                jobs.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        UUID id = UUID.randomUUID();
                        tx.executeWrite(status -> {
                            store.publishAll(List.of(new SandboxEnforcement(id, org, project, new byte[32], 1,
                                    List.of(), List.of(), List.of())));
                            Thread.yield(); // widen the window between drawing a version and committing
                            return null;
                        });
                        written.add(id);
                    }
                    return null;
                }));
            }
            Future<?> all = pool.submit(() -> {
                for (Future<?> j : jobs) {
                    j.get();
                }
                done.set(true);
                return null;
            });
            long after = 0;
            boolean last = false;
            while (!last) {
                last = done.get(); // one more read after the writers finished
                for (EnforcementStore.ListedChange c : store.changesAfter(after, 500)) {
                    seen.add(c.sandboxId());
                    after = c.version();
                }
            }
            all.get();
        } finally {
            pool.shutdown();
        }
        assertThat(written).hasSize(writers * each);
        assertThat(seen).containsAll(written);
    }
}
