package dev.stockade.api.kernel.config;

import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/**
 * The clock every time-dependent rule reads, replaceable in tests. It ticks in whole microseconds, what PostgreSQL
 * stores: a time the platform answers is the time it stored, and a client that sends it back is not refused for
 * being finer than the platform keeps (docs/semantics.md).
 */
@Factory
final class ClockFactory {
    @Singleton
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofNanos(1_000));
    }
}
