package dev.stockade.api.inference;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a finished model call is settled and audited: off the caller's path, so that the answer's last bytes go out
 * without waiting for the ledger's transaction. The reservation committed before the call was forwarded still
 * holds the call's largest cost against every limit until the settlement replaces it, so settling late never lets
 * spend past a limit. When the queue is full the caller's thread settles itself (the backlog is bounded, and a
 * platform too slow to settle slows its callers instead of piling up holds). A normal stop settles what is queued:
 * its owner ({@link CallRecords}) drains it before the audit appender and the ledger it writes to are closed.
 */
final class Settlements {
    private static final Logger LOG = LoggerFactory.getLogger(Settlements.class);
    /** Settlements queued at most; beyond it the caller's thread settles its own call. */
    static final int QUEUE = 4096;
    /** A normal stop waits this long for queued settlements. */
    private static final long DRAIN_SECONDS = 30;

    private final ThreadPoolExecutor pool;

    Settlements() {
        AtomicInteger n = new AtomicInteger();
        // two threads: a settlement is a short transaction, and more would only contend for the same counter rows
        this.pool = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "settlement-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, (settlement, full) -> settlement.run()); // full, or shut down since: the caller settles, nothing is lost
    }

    /** Settles one call: queued, or at once on this thread when the queue is full or the platform is stopping. */
    void settle(Runnable settlement) {
        pool.execute(settlement);
    }

    void drain() throws InterruptedException {
        pool.shutdown();
        if (!pool.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
            LOG.warn("{} model-call settlements were still queued at shutdown: their holds lapse at expiry",
                    pool.getQueue().size());
        }
    }
}
