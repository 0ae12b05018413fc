package dev.stockade.api.kernel.config;

import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The clock every time-dependent rule reads, replaceable in tests. */
@Factory
final class ClockFactory {
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
