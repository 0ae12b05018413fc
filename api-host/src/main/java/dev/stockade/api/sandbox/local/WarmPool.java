package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Network slots made ready ahead of demand: a claimed slot with its namespace, veth pair on the bridge, address and
 * route already in place (the costliest part of a start, tens of milliseconds), handed to the next sandbox. One
 * background thread keeps {@code size} entries ready; when the pool is empty a start makes its network itself. The
 * entries are slots like any other ({@link SlotClaim} with no sandbox yet), so a crash leaves nothing the next start
 * does not reclaim, and {@link #close()} takes every entry down.
 */
final class WarmPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WarmPool.class);
    /**
     * How long the filler waits after a failure before it tries again (a full address pool, a broken bridge, a host
     * where the platform may not make namespaces): doubling from the first to the last, so a host that cannot make
     * them is not retried, nor logged, every few seconds.
     */
    private static final long FIRST_RETRY_MS = 5_000;
    private static final long LAST_RETRY_MS = 300_000;

    /** Makes and unmakes one entry's network; the provisioner's. */
    interface Maker {
        int make() throws ProvisionException;

        void unmake(int slot);
    }

    private final int size;
    private final Maker maker;
    private final Deque<Integer> ready = new ArrayDeque<>();
    private final Thread filler;
    private boolean closed;

    WarmPool(int size, Maker maker) {
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

    /** A ready slot, or empty when none is (the caller makes its network itself). */
    synchronized OptionalInt take() {
        Integer slot = ready.pollFirst();
        notifyAll(); // the filler makes the next one
        return slot == null ? OptionalInt.empty() : OptionalInt.of(slot);
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
                int slot = maker.make();
                if (!offer(slot)) {
                    maker.unmake(slot); // closed while it was being made
                    return;
                }
                retry = FIRST_RETRY_MS;
            } catch (ProvisionException e) {
                LOG.warn("the sandbox warm pool cannot prepare a network (next try in {} s): {}", retry / 1000,
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

    private synchronized boolean offer(int slot) {
        if (closed) {
            return false;
        }
        ready.addLast(slot);
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
        Integer slot;
        while ((slot = pollReady()) != null) {
            maker.unmake(slot);
        }
    }

    private synchronized Integer pollReady() {
        return ready.pollFirst();
    }
}
