package dev.stockade.bench.platform;

import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.audit.AuditOutcome;
import io.micronaut.transaction.TransactionOperations;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sustained audit append rate with durability (synchronous_commit on, fsync on), closed loop: N producer threads each
 * append and wait for the acknowledgement before the next append, like enforcement points reporting decisions.
 * Side by side in one run: {@code one-row-tx} (the baseline: {@link AuditLog#record} in a transaction of its own per
 * entry, on the host's pool of 16 connections), {@code appender-1w} ({@link AuditAppender} with one writer),
 * {@code appender} (the host's appender: four writers) and {@code appender-x16} (each call a report of 16 entries,
 * acknowledged together).
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.platform.AuditAppendBench
 * [seconds=10] [producers=1,8,64] [rounds=1]}
 */
public final class AuditAppendBench {
    private interface Producer {
        int appendOne(UUID org, int n) throws Exception; // returns how many entries were acknowledged
    }

    private AuditAppendBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int[] producers = Arrays.stream((args.length > 1 ? args[1] : "1,8,64").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        try (PlatformFixture platform = new PlatformFixture()) {
            AuditLog log = platform.bean(AuditLog.class);
            AuditAppender appender = platform.bean(AuditAppender.class);
            @SuppressWarnings("unchecked")
            TransactionOperations<Connection> tx = platform.bean(TransactionOperations.class);
            AuditAppender single = new AuditAppender(platform.bean(dev.stockade.api.kernel.db.Sql.class), tx, 65_536, 2000, 1,
                    java.time.Duration.ofSeconds(5), platform.bean(com.fasterxml.jackson.databind.ObjectMapper.class));
            Map<String, Producer> modes = new java.util.LinkedHashMap<>();
            modes.put("one-row-tx", (org, n) -> {
                tx.executeWrite(s -> {
                    log.record(event(org, n));
                    return null;
                });
                return 1;
            });
            modes.put("appender-1w", (org, n) -> {
                single.append(event(org, n)).join();
                return 1;
            });
            modes.put("appender", (org, n) -> {
                appender.append(event(org, n)).join();
                return 1;
            });
            modes.put("appender-x16", (org, n) -> {
                List<AuditEvent> report = new ArrayList<>(16);
                for (int i = 0; i < 16; i++) {
                    report.add(event(org, n + i));
                }
                appender.appendAll(report).join();
                return 16;
            });
            System.out.println("warm-up: every mode, 8 producers, 3 s each");
            for (Producer p : modes.values()) {
                measure(platform.newOrg(), p, 8, 3);
            }
            System.out.printf("%-14s %9s %12s %10s %10s %8s%n", "mode", "producers", "entries/s", "ack p50", "ack p99",
                    "load");
            for (int r = 0; r < rounds; r++) {
                for (int n : producers) {
                    for (Map.Entry<String, Producer> m : modes.entrySet()) {
                        Result res = measure(platform.newOrg(), m.getValue(), n, seconds);
                        System.out.printf("%-14s %9d %12.0f %8.2fms %8.2fms %8.2f%n", m.getKey(), n, res.rate,
                                res.p50Ms, res.p99Ms, load());
                    }
                }
            }
        }
        System.exit(0);
    }

    private record Result(double rate, double p50Ms, double p99Ms) {
    }

    private static Result measure(UUID org, Producer producer, int threads, int seconds) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(threads);
        long[] entries = new long[threads];
        long[][] latencies = new long[threads][];
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread th = new Thread(() -> {
                long[] lat = new long[1 << 16];
                int k = 0;
                try {
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        entries[me] += producer.appendOne(org, k);
                        if (k == lat.length) {
                            lat = Arrays.copyOf(lat, lat.length * 2);
                        }
                        lat[k++] = System.nanoTime() - t0;
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    latencies[me] = Arrays.copyOf(lat, k);
                    done.countDown();
                }
            });
            th.start();
        }
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L); // the measurement window: producers run while this thread waits
        stop.set(true);
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        return new Result(Arrays.stream(entries).sum() / elapsed, pct(all, 0.50), pct(all, 0.99));
    }

    private static double pct(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, q * sorted.length)] / 1e6;
    }

    private static double load() {
        try {
            return Double.parseDouble(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (Exception e) {
            return Double.NaN;
        }
    }

    static AuditEvent event(UUID org, int n) {
        return AuditEvent.of(AuditKind.EGRESS, "decide").org(org).read(true).outcome(n % 10 == 0 ? AuditOutcome.DENIED : AuditOutcome.SUCCESS)
                .by(Actor.of("sandbox-token", "sbx-" + (n % 32))).target("api.example.com:443")
                .details(Map.of("method", "GET", "path", "/v1/items/" + n)).build();
    }
}
