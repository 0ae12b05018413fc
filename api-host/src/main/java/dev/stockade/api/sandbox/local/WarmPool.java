package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sandbox starts made ready ahead of demand (the provisioner's entries: a claimed slot with its namespace, veth pair
 * on the bridge, address and route in place, and a launcher waiting in the slot's cgroups; the costliest part of a
 * start), handed to the next sandbox. One background thread keeps {@code size} entries ready; when the pool is empty
 * a start makes its own. The entries hold slots like any other ({@link SlotClaim} with no sandbox yet), so a crash
 * leaves nothing the next start does not reclaim, and {@link #close()} takes every entry down. The filler thread lives
 * as long as the pool: what it starts may die with it (bubblewrap's {@code --die-with-parent} follows the thread).
 */
final class WarmPool<T> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WarmPool.class);
    /**
     * How long the filler waits after a failure before it tries again (a full address pool, a broken bridge, a host
     * where the platform may not make namespaces): doubling from the first to the last, so a host that cannot make
     * them is not retried, nor logged, every few seconds.
     */
    private static final long FIRST_RETRY_MS = 5_000;
    private static final long LAST_RETRY_MS = 300_000;

    /** Makes and unmakes one entry; the provisioner's. */
    interface Maker<T> {
        T make() throws ProvisionException;

        void unmake(T entry);
    }

    private final int size;
    private final Maker<T> maker;
    private final Deque<T> ready = new ArrayDeque<>();
    private final Thread filler;
    private boolean closed;

    WarmPool(int size, Maker<T> maker) {
        this.size = size;
        this.maker = maker;
        this.filler = new Thread(this::fill, "sandbox-warm-pool");
        filler.setDaemon(true);
    }

    /** Starts filling in the background (nothing when the size is 0). */
    void start() {
        if (size > 0) {
            filler.start();
        }
    }

    /** A ready entry, or empty when none is (the caller makes its own). */
    synchronized Optional<T> take() {
        T entry = ready.pollFirst();
        notifyAll(); // the filler makes the next one
        return Optional.ofNullable(entry);
    }

    /** How many entries are ready now. */
    synchronized int readyCount() {
        return ready.size();
    }

    private void fill() {
        long retry = FIRST_RETRY_MS;
        while (true) {
            if (!awaitRoom()) {
                return;
            }
            try {
                T entry = maker.make();
                if (!offer(entry)) {
                    maker.unmake(entry); // closed while it was being made
                    return;
                }
                retry = FIRST_RETRY_MS;
            } catch (ProvisionException | RuntimeException e) {
                // never ends the thread: the sandboxes started from its entries die with it (--die-with-parent)
                LOG.warn("the sandbox warm pool cannot prepare a start (next try in {} s): {}", retry / 1000,
                        e.getMessage());
                if (!pause(retry)) {
                    return;
                }
                retry = Math.min(retry * 2, LAST_RETRY_MS);
            }
        }
    }

    /** Waits until the pool has room; false once closed. */
    private synchronized boolean awaitRoom() {
        try {
            while (!closed && ready.size() >= size) {
                wait();
            }
        } catch (InterruptedException e) {
            return false;
        }
        return !closed;
    }

    private synchronized boolean offer(T entry) {
        if (closed) {
            return false;
        }
        ready.addLast(entry);
        return true;
    }

    private synchronized boolean pause(long ms) {
        try {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
            for (long left = ms; !closed && left > 0; left = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())) {
                wait(left);
            }
        } catch (InterruptedException e) {
            return false;
        }
        return !closed;
    }

    /** Stops the filler (waiting for an entry in the making) and takes every ready entry down. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            filler.join(30_000); // one entry takes well under a second to make
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        T entry;
        while ((entry = pollReady()) != null) {
            maker.unmake(entry);
        }
    }

    private synchronized T pollReady() {
        return ready.pollFirst();
    }
}
