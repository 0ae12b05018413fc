package dev.stockade.api.spend;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * How long a spend reservation holds budget ({@code inference.reservation-ttl}): long enough for the longest call
 * the proxy serves, short enough that a replica killed mid-stream does not keep its callers' budget for long.
 *
 * @param reservationTtl how long a hold counts toward limits unless settled or released first (1 s to 24 h)
 */
@ConfigurationProperties("inference")
public record ReservationSettings(@Bindable(defaultValue = "15m") Duration reservationTtl) {
    /** The longest hold accepted: a day, after which expired holds are purged anyway. */
    public static final Duration MAX_TTL = Duration.ofDays(1);

    public ReservationSettings {
        if (reservationTtl == null || reservationTtl.compareTo(Duration.ofSeconds(1)) < 0
                || reservationTtl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException("inference.reservation-ttl must be between 1s and 24h, was "
                    + reservationTtl);
        }
    }
}
