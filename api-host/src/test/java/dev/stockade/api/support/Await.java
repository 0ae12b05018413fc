package dev.stockade.api.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** The platform tests' bounded waits: proxy-host's {@link dev.stockade.proxy.Await} with a platform-sized bound. */
public final class Await {
    /** Generous: a sandbox, a child process or the embedded database on a loaded 2-core machine. */
    public static final Duration BOUND = Duration.ofSeconds(60);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} when it does not within {@link #BOUND}. */
    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        dev.stockade.proxy.Await.until(what, BOUND, condition);
    }
}
