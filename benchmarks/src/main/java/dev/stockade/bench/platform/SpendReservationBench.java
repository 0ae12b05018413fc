package dev.stockade.bench.platform;

import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.spend.LimitTarget;
import dev.stockade.api.spend.Reservation;
import dev.stockade.api.spend.SpendAdmission;
import dev.stockade.api.spend.SpendReservations;
import dev.stockade.api.spend.SpendingLimits;
import dev.stockade.api.spend.UsageLedger;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.model.Provider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Spend admission per metered call against PostgreSQL (fsync and synchronous_commit on), closed loop: N threads each
 * admit one call and record it before the next, as proxy threads ending calls would. Side by side in one run, each
 * under contention (every thread in one organization with a limit, so all queue on its limit row and counters) and
 * without (a thread per organization, each with its own limit):
 * {@code check-record} (the baseline: today's check-then-call, {@link SpendAdmission#check} then
 * {@link UsageLedger#record}, which overshoots under concurrency) and {@code reserve-settle}
 * ({@link SpendReservations#reserve} then {@link SpendReservations#settle}, which does not).
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.platform.SpendReservationBench
 * [seconds=10] [threads=1,8,64] [rounds=1]}
 */
public final class SpendReservationBench {
    private static final long COST = 1_000; // micro-USD per call, far inside the limits: nothing is refused

    /** One admitted and recorded call of a caller; returns when admission ended ({@link System#nanoTime}). */
    private interface Call {
        long run(Caller c) throws Exception;
    }

    private record Caller(UUID org, UUID project) {
    }

    private SpendReservationBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int[] threads = Arrays.stream((args.length > 1 ? args[1] : "1,8,64").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        try (PlatformFixture platform = new PlatformFixture()) {
            SpendAdmission admission = platform.bean(SpendAdmission.class);
            UsageLedger ledger = platform.bean(UsageLedger.class);
            SpendReservations reservations = platform.bean(SpendReservations.class);
            Map<String, Call> modes = new LinkedHashMap<>();
            modes.put("check-record", c -> {
                admission.check(c.org(), c.project(), null).require();
                long admitted = System.nanoTime();
                ledger.record(usage(c));
                return admitted;
            });
            modes.put("reserve-settle", c -> {
                Reservation r = reservations.reserve(c.org(), c.project(), null, COST).require();
                long admitted = System.nanoTime();
                reservations.settle(r, usage(c));
                return admitted;
            });
            System.out.println("warm-up: every mode, 8 threads, 3 s each");
            for (Call call : modes.values()) {
                measure(callers(platform, 8, false), call, 3);
            }
            System.out.printf("%-16s %-10s %7s %10s %10s %10s %10s %10s %6s%n", "mode", "orgs", "threads",
                    "calls/s", "p50", "p99", "admit p50", "admit p99", "load");
            for (int r = 0; r < rounds; r++) {
                for (int n : threads) {
                    for (boolean contended : new boolean[] {true, false}) {
                        for (Map.Entry<String, Call> m : modes.entrySet()) {
                            Result res = measure(callers(platform, n, contended), m.getValue(), seconds);
                            System.out.printf("%-16s %-10s %7d %10.0f %8.2fms %8.2fms %8.2fms %8.2fms %6.2f%n",
                                    m.getKey(), contended ? "one" : "per-thread", n, res.rate(), res.p50Ms(),
                                    res.p99Ms(), res.admitP50Ms(), res.admitP99Ms(), load());
                        }
                    }
                }
            }
        }
        System.exit(0);
    }

    /** {@code n} callers: one organization for all (contended) or one each, every organization with a limit. */
    private static List<Caller> callers(PlatformFixture platform, int n, boolean contended) {
        SpendingLimits limits = platform.bean(SpendingLimits.class);
        List<Caller> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (contended && i > 0) {
                out.add(out.get(0));
                continue;
            }
            UUID org = platform.newOrg();
            limits.set(new Identity.Owner(UUID.randomUUID()), org, LimitTarget.org(), 1_000_000_000_000L,
                    SpendPeriod.MONTH);
            out.add(new Caller(org, platform.newProject(org)));
        }
        return out;
    }

    private static UsageLedger.Usage usage(Caller c) {
        return new UsageLedger.Usage(c.org(), c.project(), null, Provider.OPENAI, "gpt-bench", 1000, 200, COST, true,
                null);
    }

    /** Calls per second, and the latency of a whole call and of its admission alone (what delays forwarding). */
    private record Result(double rate, double p50Ms, double p99Ms, double admitP50Ms, double admitP99Ms) {
    }

    private static Result measure(List<Caller> callers, Call call, int seconds) throws Exception {
        int threads = callers.size();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(threads);
        long[][] latencies = new long[threads][];
        long[][] admissions = new long[threads][];
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread th = new Thread(() -> {
                long[] lat = new long[1 << 14];
                long[] adm = new long[1 << 14];
                int k = 0;
                try {
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        long admitted = call.run(callers.get(me));
                        if (k == lat.length) {
                            lat = Arrays.copyOf(lat, lat.length * 2);
                            adm = Arrays.copyOf(adm, adm.length * 2);
                        }
                        lat[k] = System.nanoTime() - t0;
                        adm[k++] = admitted - t0;
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    latencies[me] = Arrays.copyOf(lat, k);
                    admissions[me] = Arrays.copyOf(adm, k);
                    done.countDown();
                }
            });
            th.start();
        }
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L); // the measurement window: callers run while this thread waits
        stop.set(true);
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        long[] admit = Arrays.stream(admissions).flatMapToLong(Arrays::stream).sorted().toArray();
        return new Result(all.length / elapsed, pct(all, 0.50), pct(all, 0.99), pct(admit, 0.50), pct(admit, 0.99));
    }

    private static double pct(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, q * sorted.length)] / 1e6;
    }

    private static double load() {
        try {
            return Double.parseDouble(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                    .split(" ")[0]);
        } catch (Exception e) {
            return Double.NaN;
        }
    }
}
