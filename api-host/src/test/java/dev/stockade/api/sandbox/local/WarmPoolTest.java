package dev.stockade.api.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The warm pool's filler outlives a failure of any kind (the sandboxes started from its entries die with its thread,
 * bubblewrap's --die-with-parent), refills what starts take, and hands every entry it still holds back at close.
 */
class WarmPoolTest {

    @Test
    void theFillerSurvivesAnUnexpectedFailureRefillsAndGivesBackWhatItHoldsAtClose() throws Exception {
        AtomicInteger made = new AtomicInteger();
        List<Integer> unmade = new CopyOnWriteArrayList<>();
        WarmPool<Integer> pool = new WarmPool<>(2, 1, new WarmPool.Maker<>() {
            @Override
            public Integer make() {
                int n = made.incrementAndGet();
                if (n == 1) {
                    throw new IllegalStateException("not a ProvisionException"); // a bug, a full disk, ...
                }
                return n;
            }

            @Override
            public void unmake(Integer entry) {
                unmade.add(entry);
            }
        });
        pool.start();
        // the first try failed; the filler waits its first retry pause (5 s) and goes on
        Await.until("two entries after the failure", Duration.ofSeconds(30), () -> pool.readyCount() == 2);
        assertThat(pool.take()).contains(2);
        Await.until("the pool refilled", Duration.ofSeconds(30), () -> pool.readyCount() == 2);
        pool.close();
        assertThat(unmade).containsExactlyInAnyOrder(3, 4);
        assertThat(pool.readyCount()).isZero();
    }

    @Test
    void twoFillersMakeSideBySideAndNeverHoldMoreThanTheSize() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicReference<WarmPool<Integer>> self = new AtomicReference<>();
        WarmPool<Integer> pool = new WarmPool<>(3, 2, new WarmPool.Maker<>() {
            @Override
            public Integer make() {
                threads.add(Thread.currentThread().getName());
                int now = inFlight.incrementAndGet() + self.get().readyCount();
                most.accumulateAndGet(now, Math::max);
                Thread.yield(); // let the other filler run while this one is making
                inFlight.decrementAndGet();
                return next.incrementAndGet();
            }

            @Override
            public void unmake(Integer entry) {
            }
        });
        self.set(pool);
        pool.start();
        for (int i = 0; i < 50; i++) {
            Await.until("an entry ready", Duration.ofSeconds(30), () -> pool.readyCount() > 0);
            assertThat(pool.take()).isPresent();
        }
        Await.until("the pool full again", Duration.ofSeconds(30), () -> pool.readyCount() == 3);
        pool.close();
        assertThat(most.get()).as("entries ready or in the making at once").isLessThanOrEqualTo(3);
        assertThat(next.get()).isEqualTo(53);
        assertThat(threads).containsExactlyInAnyOrder("sandbox-warm-pool-0", "sandbox-warm-pool-1");
    }
}
