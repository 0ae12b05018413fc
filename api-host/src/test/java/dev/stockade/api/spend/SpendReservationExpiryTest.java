package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.support.MutableClock;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.compiler.SpendScope;
import dev.stockade.policy.model.Provider;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Holds expire: a replica killed mid-stream never settles or releases, and its callers' budget comes back after the
 * configured {@code inference.reservation-ttl} (two minutes here), moved by a clock the test turns.
 */
@MicronautTest(transactional = false)
class SpendReservationExpiryTest extends SpendPlatformTest {
    private static final Duration TTL = Duration.ofMinutes(2);

    @Inject
    SpendReservations reservations;
    @Inject
    SpendingLimits limits;
    @Inject
    MutableClock clock;

    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(SpendWorld.PROPERTIES);
        p.put("test.clock", "mutable");
        p.put("inference.reservation-ttl", "2m");
        return p;
    }

    @Test
    void anExpiredHoldStopsCountingAndItsCallStillSettlesAtItsRealCost() {
        UUID org = UUID.fromString(world.org());
        UUID project = UUID.fromString(world.project(org.toString(), "p"));
        world.limit(org.toString(), "/org", "1", null, ownerToken());
        Reservation abandoned = reservations.reserve(org, project, null, 1_000_000).require();
        assertThat(abandoned.expiresAt()).isEqualTo(clock.instant().plus(TTL));
        assertThat(reservations.reserve(org, project, null, 1)).isInstanceOf(Reservation.Refused.class);

        clock.advance(TTL.minusSeconds(1));
        assertThat(reservations.reserve(org, project, null, 1)).as("a second before it expires, the hold counts")
                .isInstanceOf(Reservation.Refused.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(reservations.heldMicros(SpendScope.ORGANIZATION, org, clock.instant())).isZero();
        Reservation next = reservations.reserve(org, project, null, 600_000).require();

        // the abandoned call ends after all: its real cost is recorded, though its budget was given away
        reservations.settle(abandoned, SpendWorld.usage(org.toString(), project.toString(), null, Provider.OPENAI,
                700_000L, true, clock.instant()));
        assertThat(limits.counted("org", org, SpendPeriod.MONTH, clock.instant())).isEqualTo(700_000);
        // 700,000 spent + 600,000 held: over the limit, so nothing more fits until the live hold settles
        assertThat(reservations.reserve(org, project, null, 1)).isInstanceOf(Reservation.Refused.class);
        reservations.release(next);
        assertThat(reservations.reserve(org, project, null, 300_000)).isInstanceOf(Reservation.Reserved.class);
    }

    @Test
    void aHoldExpiredForADayIsPurgedAndCanNoLongerSettle() {
        UUID org = UUID.fromString(world.org());
        UUID project = UUID.fromString(world.project(org.toString(), "p"));
        Reservation settlesLate = reservations.reserve(org, project, null, 5).require();
        Reservation purged = reservations.reserve(org, project, null, 5).require();
        Reservation purges = reservations.reserve(org, project, null, 5).require();
        UsageLedger.Usage usage = SpendWorld.usage(org.toString(), project.toString(), null, Provider.OPENAI, 5L,
                true, null);
        clock.advance(TTL.plus(SpendReservations.PURGE_AFTER).minusSeconds(1));
        reservations.settle(settlesLate, usage); // expired, but less than a day ago: still settles, and purges
        // a settlement of the organization purges what expired a day ago (a replica purges once a minute)
        clock.advance(SpendReservations.PURGE_EVERY);
        reservations.settle(purges, usage);
        assertThatThrownBy(() -> reservations.settle(purged, usage)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expired more than 24 hours ago");
        assertThat(limits.counted("org", org, SpendPeriod.MONTH, clock.instant())).isEqualTo(10);
    }

    @Test
    void aHoldMadeBeforeMidnightStillCountsInTheNewDay() {
        String org = world.org();
        String project = world.project(org, "p");
        world.limit(org, "/projects/" + project, "1", "day", ownerToken());
        Instant midnight = clock.instant().atZone(ZoneOffset.UTC).toLocalDate().plusDays(1).atStartOfDay(ZoneOffset.UTC)
                .toInstant();
        clock.advance(Duration.between(clock.instant(), midnight).minusSeconds(30));
        world.spend(org, project, null, "0.5", clock.instant());
        UUID o = UUID.fromString(org);
        UUID p = UUID.fromString(project);
        reservations.reserve(o, p, null, 500_000).require();
        assertThat(reservations.reserve(o, p, null, 1)).isInstanceOf(Reservation.Refused.class);
        clock.advance(Duration.ofSeconds(60)); // a new day: yesterday's spend no longer counts, the live hold does
        assertThat(reservations.reserve(o, p, null, 500_001)).isInstanceOf(Reservation.Refused.class);
        assertThat(reservations.reserve(o, p, null, 500_000)).isInstanceOf(Reservation.Reserved.class);
    }

    @Test
    void aReservationTtlOutsideOneSecondToADayIsRefusedAtBoot() {
        assertThat(new ReservationSettings(Duration.ofMinutes(15)).reservationTtl()).isEqualTo(Duration.ofMinutes(15));
        for (Duration bad : new Duration[] {null, Duration.ZERO, Duration.ofMillis(999), Duration.ofHours(25)}) {
            assertThatThrownBy(() -> new ReservationSettings(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("inference.reservation-ttl must be between 1s and 24h");
        }
    }
}
