package dev.stockade.pii;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The default worker: a fixed pool of masking threads in the proxy's JVM with a bounded queue. A timed-out
 * request is interrupted (the scan stops at its next window). A virtual-machine error in a task
 * (out of memory, stack overflow) leaves the JVM in doubt, so the worker declares itself dead.
 */
public final class InProcessWorker implements MaskingWorker {

    private final Task task;
    private final ThreadPoolExecutor pool;
    private final AtomicReference<String> death = new AtomicReference<>();

    /** A pool of {@code threads} masking threads; at most {@code queue} requests wait for one. */
    public InProcessWorker(Task task, int threads, int queue) {
        if (threads < 1 || queue < 1) {
            throw new IllegalArgumentException("threads and queue must be at least 1, got " + threads + " and " + queue);
        }
        this.task = task;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread t = new Thread(r, "pii-masking-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
    }

    /** A pool with one thread per available processor and a queue of 64 per thread. */
    public static InProcessWorker of(PiiMasker masker) {
        int cores = Runtime.getRuntime().availableProcessors();
        return new InProcessWorker(masker::mask, cores, 64 * cores);
    }

    @Override
    public MaskedBody mask(byte[] body, WireFormat format, Duration timeout) throws MaskingException {
        if (health() == WorkerHealth.DEAD) {
            throw new MaskingException(MaskingException.Kind.WORKER_DEAD, "masking worker is dead: " + death.get());
        }
        Future<MaskedBody> f;
        try {
            f = pool.submit(() -> task.mask(body, format));
        } catch (RejectedExecutionException e) {
            if (pool.isShutdown()) {
                throw new MaskingException(MaskingException.Kind.WORKER_DEAD, "masking worker is shut down");
            }
            throw new MaskingException(MaskingException.Kind.OVERLOADED, "masking queue is full");
        }
        try {
            return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new MaskingException(MaskingException.Kind.TIMEOUT, "masking took longer than " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new MaskingException(MaskingException.Kind.TIMEOUT, "interrupted while waiting for masking");
        } catch (CancellationException e) {
            throw new MaskingException(MaskingException.Kind.TIMEOUT, "masking was cancelled");
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        }
    }

    private MaskingException unwrap(Throwable cause) {
        if (cause instanceof MaskingException m) {
            return m;
        }
        if (cause instanceof VirtualMachineError) {
            death.compareAndSet(null, cause.getClass().getSimpleName());
            pool.shutdownNow();
            return new MaskingException(MaskingException.Kind.WORKER_DEAD, "masking worker died: "
                    + cause.getClass().getSimpleName(), cause);
        }
        if (cause instanceof CancellationException) {
            return new MaskingException(MaskingException.Kind.TIMEOUT, "masking was cancelled");
        }
        return new MaskingException(MaskingException.Kind.INTERNAL, "masking failed: " + cause.getClass().getSimpleName(), cause);
    }

    /** Requests waiting for a masking thread. */
    public int queued() {
        return pool.getQueue().size();
    }

    @Override
    public WorkerHealth health() {
        return death.get() != null || pool.isShutdown() ? WorkerHealth.DEAD : WorkerHealth.ALIVE;
    }

    @Override
    public void close() {
        death.compareAndSet(null, "closed");
        pool.shutdownNow();
    }
}
