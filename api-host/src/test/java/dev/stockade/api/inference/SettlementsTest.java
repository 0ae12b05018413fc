package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Settlements run off the caller's thread, never get lost: a full queue or a stopped platform settles inline. */
class SettlementsTest {
    @Test
    void aSettlementRunsOffTheCallersThread() throws Exception {
        Settlements settlements = new Settlements();
        CompletableFuture<String> ran = new CompletableFuture<>();
        settlements.settle(() -> ran.complete(Thread.currentThread().getName()));
        assertThat(ran.get(30, TimeUnit.SECONDS)).startsWith("settlement-")
                .isNotEqualTo(Thread.currentThread().getName());
        settlements.drain();
    }

    @Test
    void aFullQueueSettlesOnTheCallersThreadAndAStopDrainsEveryQueuedOne() throws Exception {
        Settlements settlements = new Settlements();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) { // both workers held
            settlements.settle(() -> {
                busy.countDown();
                await(release);
            });
        }
        assertThat(busy.await(30, TimeUnit.SECONDS)).isTrue();
        AtomicInteger queued = new AtomicInteger();
        for (int i = 0; i < Settlements.QUEUE; i++) {
            settlements.settle(queued::incrementAndGet);
        }
        String caller = Thread.currentThread().getName();
        CompletableFuture<String> overflow = new CompletableFuture<>();
        settlements.settle(() -> overflow.complete(Thread.currentThread().getName()));
        assertThat(overflow).isCompletedWithValue(caller);
        assertThat(queued).hasValue(0);

        release.countDown();
        settlements.drain();
        assertThat(queued).as("a stop settles what was queued").hasValue(Settlements.QUEUE);
        CompletableFuture<String> afterStop = new CompletableFuture<>();
        settlements.settle(() -> afterStop.complete(Thread.currentThread().getName()));
        assertThat(afterStop).as("after a stop the caller settles its own call").isCompletedWithValue(caller);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
