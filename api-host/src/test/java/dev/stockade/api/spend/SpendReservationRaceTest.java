package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.compiler.SpendScope;
import dev.stockade.policy.model.Provider;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The overshoot of check-then-call is absent: a thousand calls racing for a limit that fits a hundred holds admit
 * exactly a hundred, on one replica and on two replicas sharing one PostgreSQL, and their settled spend stays within
 * the limit.
 */
@MicronautTest(transactional = false)
class SpendReservationRaceTest extends SpendPlatformTest {
    private static final int CALLS = 1000;
    private static final int THREADS = 64;
    private static final long HOLD = 10_000; // 0.01 USD: a limit of 1 USD fits exactly 100 holds

    @Inject
    SpendReservations reservations;
    @Inject
    SpendingLimits limits;

    @Test
    void aThousandConcurrentReservationsForALimitThatFitsAHundredAdmitExactlyAHundred() throws Exception {
        String org = world.org();
        String project = world.project(org, "p");
        world.limit(org, "/org", "1", null, ownerToken());
        UUID o = UUID.fromString(org);
        UUID p = UUID.fromString(project);
        List<Reservation> admitted = reserved(race(CALLS, n -> reservations.reserve(o, p, null, HOLD)));
        assertThat(admitted).hasSize(100);
        assertThat(reservations.heldMicros(SpendScope.ORGANIZATION, o, Instant.now())).isEqualTo(1_000_000);

        // settle each below or at its hold, concurrently as calls end; the spend is what was settled, within the limit
        long settled = settle(admitted, n -> HOLD - n % 3, reservations);
        assertThat(settled).isEqualTo(100 * HOLD - 99); // 33 calls 1 micro-USD under, 33 calls 2 under
        assertThat(limits.counted("org", o, SpendPeriod.MONTH, Instant.now())).isEqualTo(settled)
                .isLessThanOrEqualTo(1_000_000);
        assertThat(reservations.heldMicros(SpendScope.ORGANIZATION, o, Instant.now())).isZero();
        // what settling left unspent is free again, to the micro-USD
        assertThat(reservations.reserve(o, p, null, 100)).isInstanceOf(Reservation.Refused.class);
        assertThat(reservations.reserve(o, p, null, 99)).isInstanceOf(Reservation.Reserved.class);
    }

    @Test
    void racingCallersUnderOrganizationProjectAndSandboxLimitsNeverOvershootAnyAndNeverDeadlock() throws Exception {
        String org = world.org();
        String owner = ownerToken();
        world.limit(org, "/org", "1", null, owner); // 100 holds
        List<UUID[]> callers = new ArrayList<>();
        for (String name : List.of("p1", "p2")) {
            String project = world.project(org, name);
            world.limit(org, "/projects/" + project, "0.6", "day", owner); // 60 holds each: 120 > 100
            for (String s : List.of("a", "b")) {
                String sandbox = world.sandbox(project, name + s);
                world.limit(org, "/projects/" + project + "/sandboxes/" + sandbox, "0.25", null, owner);
                callers.add(new UUID[] {UUID.fromString(project), UUID.fromString(sandbox)});
            }
            callers.add(new UUID[] {UUID.fromString(project), null});
        }
        UUID o = UUID.fromString(org);
        List<Reservation> admitted = reserved(race(CALLS, n -> {
            UUID[] c = callers.get(n % callers.size());
            return reservations.reserve(o, c[0], c[1], HOLD);
        }));
        // each project can take at most 60 and both together would take 120, so the organization's 100 bind
        assertThat(admitted).hasSize(100);
        Map<UUID, Long> perProject = admitted.stream().collect(Collectors.groupingBy(Reservation::projectId,
                Collectors.summingLong(Reservation::heldMicros)));
        assertThat(perProject.values()).allSatisfy(v -> assertThat(v).isLessThanOrEqualTo(600_000));
        Map<UUID, Long> perSandbox = admitted.stream().filter(r -> r.sandboxId() != null).collect(
                Collectors.groupingBy(Reservation::sandboxId, Collectors.summingLong(Reservation::heldMicros)));
        assertThat(perSandbox.values()).allSatisfy(v -> assertThat(v).isLessThanOrEqualTo(250_000));
        assertThat(settle(admitted, n -> HOLD, reservations)).isEqualTo(1_000_000);
        assertThat(limits.counted("org", o, SpendPeriod.MONTH, Instant.now())).isEqualTo(1_000_000);
    }

    @Test
    void twoReplicasOnOnePostgresqlAdmitExactlyAHundredBetweenThem() throws Exception {
        String org = world.org();
        String project = world.project(org, "p");
        world.limit(org, "/org", "1", null, ownerToken());
        Map<String, Object> second = new HashMap<>();
        for (String key : getProperties().keySet()) { // the running replica's values: the same database and data
            server.getApplicationContext().getProperty(key, String.class).ifPresent(v -> second.put(key, v));
        }
        second.put("micronaut.server.port", "-1");
        try (EmbeddedServer replica = ApplicationContext.run(EmbeddedServer.class, second)) {
            SpendReservations other = replica.getApplicationContext().getBean(SpendReservations.class);
            assertThat(other).isNotSameAs(reservations);
            UUID o = UUID.fromString(org);
            UUID p = UUID.fromString(project);
            List<Reservation.Result> results = race(CALLS, n -> (n % 2 == 0 ? reservations : other)
                    .reserve(o, p, null, HOLD));
            List<Reservation> admitted = reserved(results);
            assertThat(admitted).hasSize(100);
            long viaSecond = 0;
            for (int n = 1; n < results.size(); n += 2) {
                viaSecond += results.get(n) instanceof Reservation.Reserved ? 1 : 0;
            }
            assertThat(viaSecond).as("both replicas admitted calls").isBetween(1L, 99L);
            // settled by whichever replica the stream ended on
            long spent = settle(admitted, n -> HOLD, n -> n % 2 == 0 ? reservations : other);
            assertThat(spent).isEqualTo(1_000_000);
            assertThat(limits.counted("org", o, SpendPeriod.MONTH, Instant.now())).isEqualTo(1_000_000);
        }
    }

    private static List<Reservation> reserved(List<Reservation.Result> results) {
        return results.stream().filter(r -> r instanceof Reservation.Reserved).map(Reservation.Result::require)
                .toList();
    }

    /** What a reservation settles to, by its index among the admitted. */
    private interface Cost {
        long of(int n);
    }

    private static long settle(List<Reservation> admitted, Cost cost, SpendReservations by) throws Exception {
        return settle(admitted, cost, n -> by);
    }

    /** Settles every admitted reservation concurrently, each at {@code cost}; returns the sum settled. */
    private static long settle(List<Reservation> admitted, Cost cost, IntFunction<SpendReservations> by)
            throws Exception {
        race(admitted.size(), n -> {
            Reservation r = admitted.get(n);
            by.apply(n).settle(r, SpendWorld.usage(r.orgId().toString(), r.projectId().toString(),
                    r.sandboxId() == null ? null : r.sandboxId().toString(), Provider.BEDROCK,
                    cost.of(n), true, null));
            return null;
        });
        long sum = 0;
        for (int n = 0; n < admitted.size(); n++) {
            sum += cost.of(n);
        }
        return sum;
    }

    /**
     * Runs {@code calls} calls on {@value #THREADS} threads released together; returns their results in call order.
     * A call that throws fails the test with its cause.
     */
    private static <T> List<T> race(int calls, IntFunction<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch gate = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                int n = i;
                futures.add(pool.submit(() -> {
                    gate.await();
                    return call.apply(n);
                }));
            }
            gate.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get(2, TimeUnit.MINUTES));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
