package dev.stockade.proxy;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Bounded waits for a state another thread (or process) changes: CI runs on a shared 2-core machine where what takes
 * milliseconds here can take seconds. Shared with api-host's tests through this module's test jar.
 */
public final class Await {
    /** What proxy tests wait for by default: far beyond what a healthy run needs, inside the module's hang guard. */
    public static final Duration BOUND = Duration.ofSeconds(30);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} when it does not within {@link #BOUND}. */
    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, BOUND, condition);
    }

    /** Returns once {@code condition} holds; fails naming {@code what} when it does not within {@code bound}. */
    public static void until(String what, Duration bound, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + bound.toSeconds() + " s for " + what);
            }
            Thread.sleep(20); // poll a state another thread changes, bounded by the deadline above
        }
    }
}
