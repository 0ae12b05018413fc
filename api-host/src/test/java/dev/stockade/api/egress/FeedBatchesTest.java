package dev.stockade.api.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.enforcement.SandboxEnforcement;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Inject;
import java.io.IOException;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The changes after a version are read once for every reader at that version (each feed session, the platform's own
 * proxy), and a reader never misses a change for it: the tail of the table is read again after every commit's
 * {@code enforcement} event, while a full batch is what a read at that version returned and stays shared.
 */
@MicronautTest(transactional = false)
@Timeout(120)
class FeedBatchesTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    FeedBatches batches;
    @Inject
    EnforcementStore store;
    @Inject
    TransactionOperations<Connection> tx;

    @Test
    void readersAtTheTailShareOneReadAndTheNextCommitIsReadAfterItsEvent() throws Exception {
        long head = head();
        publish(1, "tail");
        long atTail = head();
        FeedBatches.Batch first = batches.after(head);
        assertThat(first.full()).isFalse();
        assertThat(first.items()).hasSize(1);
        assertThat(batches.after(head)).as("no commit since: the same read").isSameAs(first);

        List<UUID> added = publish(1, "next");
        FeedBatches.Batch again = batches.after(atTail);
        assertThat(again.items()).extracting(FeedBatches.Item::sandboxId).containsExactlyElementsOf(added);
        assertThat(again.items().get(0).set().grants()).hasSize(1);
        assertThat(JSON.readTree(again.items().get(0).setEvent()).path("sandboxId").asText())
                .isEqualTo(added.get(0).toString());
    }

    @Test
    void aFullBatchIsSharedAcrossLaterCommits() throws Exception {
        long head = head();
        publish(FeedSets.BATCH + 1, "full");
        FeedBatches.Batch full = batches.after(head);
        assertThat(full.full()).isTrue();
        assertThat(full.items()).hasSize(FeedSets.BATCH);

        publish(1, "later");
        assertThat(batches.after(head)).as("a full batch does not grow").isSameAs(full);
        long next = full.items().get(FeedSets.BATCH - 1).version();
        assertThat(batches.after(next).items()).hasSize(2);
    }

    @Test
    void readersArrivingTogetherWaitForOneRead() throws Exception {
        long head = head();
        publish(3, "together");
        int readers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        try {
            Semaphore gate = new Semaphore(0);
            List<Future<FeedBatches.Batch>> got = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                got.add(pool.submit((Callable<FeedBatches.Batch>) () -> {
                    gate.acquire();
                    return batches.after(head);
                }));
            }
            gate.release(readers);
            FeedBatches.Batch one = got.get(0).get(30, TimeUnit.SECONDS);
            assertThat(one.items()).hasSize(3);
            for (Future<FeedBatches.Batch> f : got) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isSameAs(one);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The last version written, read through the batches (so the tail is read at the current generation). */
    private long head() {
        long at = 0;
        FeedBatches.Batch b;
        do {
            b = batches.after(at);
            if (!b.items().isEmpty()) {
                at = b.items().get(b.items().size() - 1).version();
            }
        } while (b.full());
        return at;
    }

    /** Publishes {@code n} new sandboxes' sets in one commit and returns once its event reached the batches. */
    private List<UUID> publish(int n, String name) throws IOException, InterruptedException {
        String owner = ownerToken();
        UUID org = UUID.fromString(createOrg(owner, name));
        UUID project = UUID.fromString(createProject(owner, org.toString(), "p"));
        JsonNode doc = JSON.readTree("{\"name\":\"" + name + "\",\"allowedDomains\":[{\"pattern\":\"" + name
                + ".example.com\",\"verdict\":\"allow\"}]}");
        List<SandboxEnforcement> sets = new ArrayList<>();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            sets.add(new SandboxEnforcement(id, org, project, new byte[32], 1, List.of(doc), List.of(), List.of()));
        }
        CountDownLatch delivered = new CountDownLatch(1);
        batches.onChange(delivered::countDown);
        tx.executeWrite(status -> {
            store.publishAll(sets);
            return null;
        });
        assertThat(delivered.await(30, TimeUnit.SECONDS)).as("the commit's enforcement event").isTrue();
        return ids;
    }
}
