package dev.stockade.api.signin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Dynamic client registration is open to anyone (RFC 7591, as MCP clients expect), so each one costs a row: this bounds
 * it per remote address ({@value #PER_ADDRESS} at once, refilled at {@value #PER_ADDRESS} an hour) and for the whole
 * installation ({@value #ALL} an hour), so a flood can neither fill the database nor starve other clients for long.
 * Addresses are the TCP peer's: clients behind one proxy share its allowance.
 */
@Singleton
final class RegistrationLimit {
    static final int PER_ADDRESS = 30;
    static final int ALL = 1_000;
    private static final Duration HOUR = Duration.ofHours(1);

    private final TimeMeter time;
    private final Cache<String, Bucket> perAddress = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterAccess(HOUR).build();
    private final Bucket all;

    @Inject
    RegistrationLimit() {
        this(TimeMeter.SYSTEM_NANOTIME);
    }

    RegistrationLimit(TimeMeter time) {
        this.time = time;
        this.all = bucket(ALL);
    }

    /** Takes one registration for {@code address}, or refuses with 429 and when to try again. */
    void admit(String address) {
        Bucket mine = perAddress.get(address, a -> bucket(PER_ADDRESS));
        ConsumptionProbe probe = mine.tryConsumeAndReturnRemaining(1);
        if (!probe.isConsumed()) {
            throw refused(probe, "this address registered " + PER_ADDRESS + " clients within the hour");
        }
        ConsumptionProbe global = all.tryConsumeAndReturnRemaining(1);
        if (!global.isConsumed()) {
            mine.addTokens(1); // the refusal is the installation's, not this address's
            throw refused(global, "this installation registered " + ALL + " clients within the hour");
        }
    }

    private Bucket bucket(int perHour) {
        return Bucket.builder().addLimit(l -> l.capacity(perHour).refillGreedy(perHour, HOUR))
                .withCustomTimePrecision(time).build();
    }

    private static OAuthFailure refused(ConsumptionProbe probe, String why) {
        long seconds = Math.max(1, Duration.ofNanos(probe.getNanosToWaitForRefill()).toSeconds());
        return new OAuthFailure(429, "temporarily_unavailable", why + "; try again in " + seconds + " s", seconds);
    }
}
