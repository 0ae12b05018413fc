package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The in-process worker: timeouts interrupt the work, a virtual-machine error kills the worker, failures are typed. */
class WorkerTest {

    private static final byte[] BODY = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"mail jane@example.com\"}]}"
            .getBytes(StandardCharsets.UTF_8);

    private static MaskingException.Kind kindOf(ThrowingCall call) {
        try {
            call.run();
        } catch (MaskingException e) {
            return e.kind();
        }
        throw new AssertionError("expected a MaskingException");
    }

    private interface ThrowingCall {
        void run() throws MaskingException;
    }

    @Test
    void masksThroughThePool() throws MaskingException {
        try (InProcessWorker w = InProcessWorker.of(PiiMaskerTest.ALL)) {
            MaskedBody m = w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(30));
            assertThat(new String(m.body(), StandardCharsets.UTF_8)).contains("[EMAIL_").doesNotContain("jane@");
            assertThat(w.health()).isEqualTo(WorkerHealth.ALIVE);
        }
    }

    @Test
    void aSlowRequestTimesOutAndIsInterrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        try (InProcessWorker w = new InProcessWorker((b, f) -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            throw new MaskingException(MaskingException.Kind.INTERNAL, "stopped");
        }, 1, 1)) {
            assertThat(kindOf(() -> w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofMillis(50))))
                    .isEqualTo(MaskingException.Kind.TIMEOUT);
            assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the timed-out task was interrupted").isTrue();
            assertThat(w.health()).isEqualTo(WorkerHealth.ALIVE);
        }
    }

    @Test
    void aFullQueueIsOverloadNotDeath() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        try (InProcessWorker w = new InProcessWorker((b, f) -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return PiiMaskerTest.ALL.mask(b, f);
        }, 1, 1)) {
            Thread first = new Thread(() -> kindOrNull(w));
            first.start();
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Thread queued = new Thread(() -> kindOrNull(w));
            queued.start();
            awaitQueued(w);
            assertThat(kindOf(() -> w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(5))))
                    .isEqualTo(MaskingException.Kind.OVERLOADED);
            release.countDown();
            first.join(10_000);
            queued.join(10_000);
            assertThat(w.health()).isEqualTo(WorkerHealth.ALIVE);
        }
    }

    private static void kindOrNull(InProcessWorker w) {
        try {
            w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(30));
        } catch (MaskingException ignored) {
            // the test only needs the slot taken
        }
    }

    // The queue fills when the second caller's task is accepted; poll its size with a bound, no fixed sleep.
    private static void awaitQueued(InProcessWorker w) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (w.queued() < 1) {
            assertThat(System.nanoTime()).as("second request never queued").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void aVirtualMachineErrorKillsTheWorker() {
        AtomicBoolean first = new AtomicBoolean(true);
        InProcessWorker w = new InProcessWorker((b, f) -> {
            if (first.getAndSet(false)) {
                throw new OutOfMemoryError("simulated");
            }
            return PiiMaskerTest.ALL.mask(b, f);
        }, 2, 4);
        assertThat(kindOf(() -> w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(10))))
                .isEqualTo(MaskingException.Kind.WORKER_DEAD);
        assertThat(w.health()).isEqualTo(WorkerHealth.DEAD);
        assertThat(kindOf(() -> w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(10))))
                .as("a dead worker refuses later requests too").isEqualTo(MaskingException.Kind.WORKER_DEAD);
    }

    @Test
    void aClosedWorkerIsDead() {
        InProcessWorker w = InProcessWorker.of(PiiMaskerTest.ALL);
        w.close();
        assertThat(w.health()).isEqualTo(WorkerHealth.DEAD);
        assertThat(kindOf(() -> w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(1))))
                .isEqualTo(MaskingException.Kind.WORKER_DEAD);
    }

    @Test
    void anInvalidBodyIsReportedAsSuch() {
        try (InProcessWorker w = InProcessWorker.of(PiiMaskerTest.ALL)) {
            assertThat(kindOf(() -> w.mask("nope".getBytes(), WireFormat.OPENAI_CHAT, Duration.ofSeconds(10))))
                    .isEqualTo(MaskingException.Kind.INVALID_BODY);
            assertThat(w.health()).isEqualTo(WorkerHealth.ALIVE);
        }
    }

    @Test
    void badPoolSizesAreRefused() {
        assertThatThrownBy(() -> new InProcessWorker(PiiMaskerTest.ALL::mask, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }
}
