package dev.stockade.host.retry;

import java.time.Duration;

/**
 * The one reconnect backoff of every host's long-lived loop (the proxy's feed and audit sink, the platform's event
 * stream, the cluster relay): the wait doubles after each failure up to a cap and starts over after a success.
 * Not thread-safe: one loop owns one instance.
 */
public final class Backoff {
    private final Duration first;
    private final Duration cap;
    private Duration next;

    /** Waits {@code first} after the first failure, doubling to at most {@code cap}. */
    public Backoff(Duration first, Duration cap) {
        if (first.isNegative() || first.isZero() || cap.compareTo(first) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < first <= cap");
        }
        this.first = first;
        this.cap = cap;
        this.next = first;
    }

    /** The wait the next failure will take (what a status line reports before sleeping). */
    public Duration next() {
        return next;
    }

    /** Sleeps the current wait after a failure, then doubles it (at most the cap). */
    public void pause() throws InterruptedException {
        Duration wait = next;
        next = wait.multipliedBy(2).compareTo(cap) > 0 ? cap : wait.multipliedBy(2);
        Thread.sleep(wait.toMillis()); // the backoff itself: the peer is down or refused
    }

    /** After a success: the next failure waits {@code first} again. */
    public void reset() {
        next = first;
    }
}
