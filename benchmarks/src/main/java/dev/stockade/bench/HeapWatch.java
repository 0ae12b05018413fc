package dev.stockade.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Times one operation and keeps the largest heap any collection during it left behind (the live set it held), from
 * the JVM's own GC notifications; with the load average at its start, since other builds share the machine.
 */
final class HeapWatch {
    /**
     * One operation's wall time, the CPU time of the thread that ran it (the commands run on one thread; the load
     * of other builds moves it far less than the wall time), the largest heap a collection during it left, the
     * 1-minute load.
     */
    record Sample(double millis, double cpuMillis, long liveMb, String load) {
    }

    /** A collection: when it started (JVM uptime, ms) and the heap it left. */
    private record Collection(long startedAt, long heapAfter) {
    }

    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    private static final List<Collection> COLLECTIONS = new CopyOnWriteArrayList<>();
    private static final Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());

    static {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((n, handback) -> {
                if (n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                    var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo();
                    long heap = info.getMemoryUsageAfterGc().entrySet().stream()
                            .filter(e -> HEAP_POOLS.contains(e.getKey())).mapToLong(e -> e.getValue().getUsed()).sum();
                    COLLECTIONS.add(new Collection(info.getStartTime(), heap));
                }
            }, null, null);
        }
    }

    private HeapWatch() {
    }

    /** Runs {@code step} after a full collection (so that no earlier garbage is counted) and measures it. */
    static Sample time(Step step) throws Exception {
        String load = load();
        System.gc();
        long from = ManagementFactory.getRuntimeMXBean().getUptime();
        long t0 = System.nanoTime();
        long c0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        step.run();
        double cpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c0) / 1e6;
        double millis = (System.nanoTime() - t0) / 1e6;
        long to = ManagementFactory.getRuntimeMXBean().getUptime();
        long live = COLLECTIONS.stream().filter(c -> c.startedAt >= from && c.startedAt <= to)
                .mapToLong(Collection::heapAfter).max().orElse(0);
        COLLECTIONS.removeIf(c -> c.startedAt <= to);
        return new Sample(millis, cpu, live >> 20, load);
    }

    /** The 1-minute load average, as {@code uptime} shows it; {@code ?} where /proc is absent. */
    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
