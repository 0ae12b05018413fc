package dev.stockade.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.runtime.channel.DeliverTo;
import dev.stockade.runtime.webhook.Subscription;
import dev.stockade.runtime.webhook.WebhookStore;
import dev.stockade.testing.Await;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who uses the store's connection next, observed through what a real SQLite file committed: a webhook's acceptance
 * goes before every run step already waiting, and each lane keeps arrival order. Nothing is timed; the test holds
 * the connection, queues callers one by one (waiting until each has queued), then lets go and reads the order.
 */
class ConnectionTurnsTest {
    @TempDir
    Path dir;
    Store store;
    final List<Thread> threads = new ArrayList<>();

    @BeforeEach
    void open() throws Exception {
        store = Store.open(dir.resolve("agent.db"));
    }

    @AfterEach
    void close() throws Exception {
        for (Thread t : threads) {
            t.join(Await.BOUND.toMillis());
        }
        store.close();
    }

    @Test
    void intakeGoesBeforeWaitingOrdinaryWorkAndEachLaneKeepsArrivalOrder() throws Exception {
        CountDownLatch release = holdConnection();
        for (int i = 0; i < 3; i++) {
            queue(Store.Lane.ORDINARY, "ordinary-" + i);
        }
        for (int i = 0; i < 2; i++) {
            queue(Store.Lane.INTAKE, "intake-" + i);
        }
        release.countDown();
        joinAll();
        assertThat(store.query("SELECT content FROM memory ORDER BY id", rs -> rs.getString(1)))
                .containsExactly("holder", "intake-0", "intake-1", "ordinary-0", "ordinary-1", "ordinary-2");
    }

    @Test
    void anAcceptanceCommitsBeforeTheRunStepsQueuedAheadOfIt() throws Exception {
        WebhookStore webhooks = new WebhookStore(store);
        webhooks.create(new Subscription("build", "", List.of(), DeliverTo.CHAT, false, "", true));
        CountDownLatch release = holdConnection();
        List<Integer> runsSeenBySteps = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 0; i < 4; i++) { // run steps of a storm, waiting for the connection
            start(() -> runsSeenBySteps.add(store.tx(c -> Store.query(c, "SELECT count(*) FROM webhook_runs",
                    rs -> rs.getInt(1)).get(0))));
            int queued = i + 1;
            Await.until(queued + " run steps queued", () -> store.turns().waiters(Store.Lane.ORDINARY) == queued);
        }
        start(() -> webhooks.accept("build", "push", "{}"));
        Await.until("the acceptance queued", () -> store.turns().waiters(Store.Lane.INTAKE) == 1);
        release.countDown();
        joinAll();
        assertThat(runsSeenBySteps).containsExactly(1, 1, 1, 1);
    }

    @Test
    void aTransactionInsideATransactionIsRefusedAndTheOuterOneRollsBack() throws Exception {
        assertThatThrownBy(() -> store.tx(Store.Lane.INTAKE, outer -> {
            insert(outer, "outer");
            return store.tx(inner -> insert(inner, "inner"));
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("inside another");
        assertThat(store.query("SELECT content FROM memory", rs -> rs.getString(1))).isEmpty();
        assertThatThrownBy(() -> store.turns().release()).isInstanceOf(IllegalMonitorStateException.class);
        insert(store, "after"); // the connection was handed back: the next transaction gets its turn
        assertThat(store.query("SELECT content FROM memory", rs -> rs.getString(1))).containsExactly("after");
    }

    /** Takes the connection on a thread of its own and keeps it (writing "holder") until the latch opens. */
    private CountDownLatch holdConnection() {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(() -> store.tx(c -> {
            held.countDown();
            awaitUninterruptibly(release);
            return insert(c, "holder");
        }));
        Await.until("the connection held", () -> held.getCount() == 0);
        return release;
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while holding the connection", e);
        }
    }

    /** Queues a transaction writing {@code label} in {@code lane}, and waits until it is waiting. */
    private void queue(Store.Lane lane, String label) {
        int before = store.turns().waiters(lane);
        start(() -> store.tx(lane, c -> insert(c, label)));
        Await.until(label + " queued", () -> store.turns().waiters(lane) == before + 1);
    }

    private static void insert(Store s, String label) throws java.sql.SQLException {
        s.tx(c -> insert(c, label));
    }

    private static int insert(java.sql.Connection c, String label) throws java.sql.SQLException {
        return Store.update(c, "INSERT INTO memory (content, created_at) VALUES (?, '2026-11-27T00:00:00Z')", label);
    }

    @FunctionalInterface
    private interface Step {
        Object run() throws Exception;
    }

    private void start(Step step) {
        Thread t = new Thread(() -> {
            try {
                step.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        threads.add(t);
        t.start();
    }

    private void joinAll() throws InterruptedException {
        for (Thread t : threads) {
            t.join(Await.BOUND.toMillis());
            assertThat(t.isAlive()).as("a queued transaction finished").isFalse();
        }
    }
}
