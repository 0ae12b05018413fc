package dev.stockade.bench.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Waits until the machine is idle again after a benchmark's set-up (processes just started still compile, and their
 * JIT warms up), so that the first measured round does not pay for the set-up: idle means the CPUs were idle for at
 * least {@code idleShare} of one second, read from {@code /proc/stat}. Bounded; says how long it took.
 */
final class Settle {
    private Settle() {
    }

    /** Waits at most {@code maxSeconds}; returns the seconds waited (the bound when the machine never settled). */
    static double await(double idleShare, int maxSeconds) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        long[] before = cpu();
        for (int i = 0; i < maxSeconds; i++) {
            Thread.sleep(1000); // one sampling interval of /proc/stat
            long[] now = cpu();
            double idle = (double) (now[1] - before[1]) / Math.max(1, now[0] - before[0]);
            before = now;
            if (idle >= idleShare) {
                break;
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** All CPU time and idle time (idle + iowait) so far, in clock ticks. */
    private static long[] cpu() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < f.length; i++) {
            total += Long.parseLong(f[i]);
        }
        return new long[] {total, Long.parseLong(f[4]) + Long.parseLong(f[5])};
    }
}
