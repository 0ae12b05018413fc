package dev.stockade.proxy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A list's program is built exactly once, by the first decision or by the background, whichever comes first; every
 * decision gets that one program; a forgotten list is not built in the background; a build that dies fails closed
 * and leaves nobody waiting.
 */
class LazyProgramTest {
    private final AtomicInteger builds = new AtomicInteger();
    private final Enforcement built = Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "stands for a program");

    @Test
    void theFirstDecisionBuildsItAndTheBackgroundThenHasNothingToDo() {
        LazyProgram p = armed();
        assertThat(p.get()).isSameAs(built);
        p.precompile();
        assertThat(p.get()).isSameAs(built);
        assertThat(builds).hasValue(1);
    }

    @Test
    void theBackgroundBuildsItAndDecisionsThenTakeIt() {
        LazyProgram p = armed();
        p.precompile();
        p.await();
        assertThat(builds).hasValue(1);
        assertThat(p.get()).isSameAs(built);
        assertThat(builds).hasValue(1);
    }

    @Test
    void decisionsArrivingTogetherWaitForOneBuild() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        LazyProgram p = new LazyProgram();
        p.arm(() -> {
            builds.incrementAndGet();
            try {
                release.await(5, TimeUnit.SECONDS); // a slow compile: the others arrive while it runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return built;
        });
        ExecutorService pool = Executors.newFixedThreadPool(9);
        CountDownLatch arrived = new CountDownLatch(9);
        try {
            List<Future<Enforcement>> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(pool.submit(() -> {
                    arrived.countDown();
                    return p.get();
                }));
            }
            got.add(pool.submit(() -> {
                arrived.countDown();
                p.precompile();
                return p.get();
            }));
            // the build is held until every caller is on its way: they overlap it, whoever started it
            assertThat(arrived.await(5, TimeUnit.SECONDS)).isTrue();
            release.countDown();
            for (Future<Enforcement> f : got) {
                assertThat(f.get(5, TimeUnit.SECONDS)).isSameAs(built);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(builds).hasValue(1);
    }

    @Test
    void aForgottenListIsNotBuiltInTheBackgroundAndAwaitingItReturns() {
        LazyProgram p = armed();
        p.forget();
        p.precompile();
        p.await();
        assertThat(builds).hasValue(0);
        assertThat(p.get()).as("a decision still holding it builds it").isSameAs(built);
    }

    @Test
    void aListSettledAsUnreadableIsNeverBuilt() {
        LazyProgram p = armed();
        Enforcement none = Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "could not be read");
        p.settle(none);
        p.precompile();
        assertThat(p.get()).isSameAs(none);
        assertThat(builds).hasValue(0);
    }

    @Test
    void aBuildThatDiesDeniesEverythingAndLeavesNobodyWaiting() {
        LazyProgram p = new LazyProgram();
        p.arm(() -> {
            throw new StackOverflowError("a build that dies");
        });
        assertThatThrownBy(p::get).isInstanceOf(StackOverflowError.class);
        Enforcement after = p.get();
        assertThat(after.program().decideConnection(EgressRequest.connection("https", "a.example.com", 443, "a.example.com",
                "sb")).reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
        p.await(); // returns: the program is settled
    }

    private LazyProgram armed() {
        LazyProgram p = new LazyProgram();
        p.arm(() -> {
            builds.incrementAndGet();
            return built;
        });
        return p;
    }
}
