package dev.stockade.api.kernel.net;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.core5.concurrent.Cancellable;

/**
 * Aborts outbound exchanges that outlive their deadline, on one daemon thread per owner: a blocking HTTP client
 * bounds each read, not a whole answer, so a far end that trickles bytes would otherwise hold a caller forever.
 */
public final class ExchangeDeadlines implements AutoCloseable {
    private final ScheduledExecutorService timer;

    /** {@code threadName} names the timer thread in dumps (one per feature that dials). */
    public ExchangeDeadlines(String threadName) {
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Cancels {@code exchange} after {@code after} and marks {@code expired}, so its failure reads as a timeout, not
     * a broken connection; cancelling the returned future first (the answer arrived) disarms it.
     */
    public ScheduledFuture<?> abortAfter(Duration after, Cancellable exchange, AtomicBoolean expired) {
        return timer.schedule(() -> {
            expired.set(true);
            exchange.cancel();
        }, after.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the timer: pending deadlines no longer fire. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
