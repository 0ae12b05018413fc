package dev.stockade.proxy;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded waits for a state another thread changes (a loaded 2-core CI machine may take seconds for what is quick). */
public final class Await {
    /** What tests wait for by default: far beyond what a healthy run needs, well inside a hang guard. */
    public static final Duration BOUND = Duration.ofSeconds(30);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} when it does not within {@link #BOUND}. */
    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + BOUND.toSeconds() + " s for " + what);
            }
            Thread.sleep(10); // poll a state another thread changes, bounded by the deadline above
        }
    }
}
