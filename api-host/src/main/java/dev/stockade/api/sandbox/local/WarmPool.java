package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sandbox starts made ready ahead of demand (the provisioner's entries: a claimed slot with its namespace, veth pair
 * on the bridge, address and route in place, and a launcher waiting in the slot's cgroups; the costliest part of a
 * start), handed to the next sandbox. Background threads keep {@code size} entries ready; when the pool is empty a
 * start makes its own. The entries hold slots like any other ({@link SlotClaim} with no sandbox yet), so a crash
 * leaves nothing the next start does not reclaim, and {@link #close()} takes every entry down. The filler threads live
 * as long as the pool: what they start may die with them (bubblewrap's {@code --die-with-parent} follows the thread).
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
    private final List<Thread> fillers = new ArrayList<>();
    /** Entries the fillers are making now: with the ready ones, never more than {@code size}. */
    private int making;
    private boolean closed;

    /**
     * {@code fillers} threads make entries side by side (one entry's making is mostly waiting for the processes it
     * starts, so two keep up with starts back to back where one falls behind).
     */
    WarmPool(int size, int fillers, Maker<T> maker) {
        this.size = size;
        this.maker = maker;
        for (int i = 0; i < Math.min(fillers, size); i++) {
            Thread t = new Thread(this::fill, "sandbox-warm-pool-" + i);
            t.setDaemon(true);
            this.fillers.add(t);
        }
    }

    /** Starts filling in the background (nothing when the size is 0). */
    void start() {
        fillers.forEach(Thread::start);
    }

    /** A ready entry, or empty when none is (the caller makes its own). */
    synchronized Optional<T> take() {
        T entry = ready.pollFirst();
        notifyAll(); // a filler makes the next one
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
                T entry;
                try {
                    entry = maker.make();
                } catch (ProvisionException | RuntimeException e) {
                    madeNone();
                    throw e;
                }
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

    /** Waits until the pool has room and takes it for one entry in the making; false once closed. */
    private synchronized boolean awaitRoom() {
        try {
            while (!closed && ready.size() + making >= size) {
                wait();
            }
        } catch (InterruptedException e) {
            return false;
        }
        if (!closed) {
            making++;
        }
        return !closed;
    }

    private synchronized void madeNone() {
        making--;
    }

    private synchronized boolean offer(T entry) {
        making--;
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

    /** Stops the fillers (waiting for the entries in the making) and takes every ready entry down. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            for (Thread t : fillers) {
                t.join(30_000); // one entry takes well under a second to make
            }
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
