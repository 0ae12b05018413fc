package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Registration is bounded per address and for the installation, refills with time, and says when to come back. */
class RegistrationLimitTest {
    private final AtomicLong nanos = new AtomicLong();
    private final RegistrationLimit limit = new RegistrationLimit(new TimeMeter() {
        @Override
        public long currentTimeNanos() {
            return nanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    });

    @Test
    void anAddressGetsItsAllowanceThenWaits() {
        for (int i = 0; i < RegistrationLimit.PER_ADDRESS; i++) {
            limit.admit("192.0.2.1");
        }
        assertThatThrownBy(() -> limit.admit("192.0.2.1")).isInstanceOfSatisfying(OAuthFailure.class, f -> {
            assertThat(f.status()).isEqualTo(429);
            assertThat(f.body().error()).isEqualTo("temporarily_unavailable");
            // one registration refills every 3600 / 30 = 120 s
            assertThat(f.retryAfterSeconds()).isBetween(119L, 120L);
        });
        limit.admit("192.0.2.2"); // another address is not held back
        nanos.addAndGet(Duration.ofSeconds(120).toNanos());
        limit.admit("192.0.2.1");
    }

    @Test
    void theInstallationHasAnAllowanceAcrossAddresses() {
        for (int i = 0; i < RegistrationLimit.ALL; i++) {
            limit.admit("198.51.100." + (i % 250) + "/" + i / 250);
        }
        assertThatThrownBy(() -> limit.admit("203.0.113.9")).isInstanceOfSatisfying(OAuthFailure.class,
                f -> assertThat(f.body().errorDescription()).contains("this installation"));
    }
}
