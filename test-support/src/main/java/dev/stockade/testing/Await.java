package dev.stockade.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Bounded waits for a state another thread or process changes, for the tests of every module: CI runs on a shared
 * 2-core machine where what takes milliseconds here can take seconds, so a wait names what it waited for and its
 * bound instead of sleeping a fixed time.
 */
public final class Await {
    /** The default bound: far beyond what a healthy run needs, inside the proxy tests' 60 s hang guard. */
    public static final Duration BOUND = Duration.ofSeconds(30);
    /** For a sandbox, a child process or the embedded database on a loaded machine. */
    public static final Duration LONG = Duration.ofSeconds(60);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} when it does not within {@link #BOUND}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, BOUND, condition);
    }

    /** Returns once {@code condition} holds; fails naming {@code what} when it does not within {@code bound}. */
    public static void until(String what, Duration bound, BooleanSupplier condition) {
        try {
            await(what).atMost(bound).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .until(condition::getAsBoolean);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("waited " + bound.toSeconds() + " s for " + what, e);
        }
    }
}
