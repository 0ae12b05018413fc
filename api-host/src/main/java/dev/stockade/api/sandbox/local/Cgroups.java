package dev.stockade.api.sandbox.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CPU and memory limits for a sandbox's process tree: cgroup v2 ({@code memory.max}, {@code cpu.max}) where the
 * unified hierarchy is mounted, otherwise cgroup v1's memory and cpu controllers. Where neither is writable the
 * limits are not enforced and the provisioner says so once, loudly.
 */
final class Cgroups {
    private static final Logger LOG = LoggerFactory.getLogger(Cgroups.class);
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_US = 100_000;
    private static volatile boolean warned;

    private Cgroups() {
    }

    /** Creates the sandbox's groups with its limits; returns the {@code cgroup.procs} files to join. */
    static List<Path> create(String name, long cpuMillis, long memoryBytes) {
        List<Path> procs = new ArrayList<>();
        try {
            if (Files.exists(ROOT.resolve("cgroup.controllers"))) {
                Path g = ROOT.resolve("stockade").resolve(name);
                Files.createDirectories(g);
                Files.writeString(g.resolve("memory.max"), Long.toString(memoryBytes));
                Files.writeString(g.resolve("cpu.max"), (cpuMillis * PERIOD_US / 1000) + " " + PERIOD_US);
                procs.add(g.resolve("cgroup.procs"));
            } else if (Files.isDirectory(ROOT.resolve("memory")) && Files.isDirectory(ROOT.resolve("cpu"))) {
                Path mem = ROOT.resolve("memory").resolve("stockade").resolve(name);
                Files.createDirectories(mem);
                Files.writeString(mem.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
                Path cpu = ROOT.resolve("cpu").resolve("stockade").resolve(name);
                Files.createDirectories(cpu);
                Files.writeString(cpu.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
                Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Long.toString(cpuMillis * PERIOD_US / 1000));
                procs.add(mem.resolve("cgroup.procs"));
                procs.add(cpu.resolve("cgroup.procs"));
            }
        } catch (IOException | RuntimeException e) {
            procs.clear();
        }
        if (procs.isEmpty() && !warned) {
            warned = true;
            LOG.warn("sandbox cpu and memory limits are NOT enforced: no writable cgroup hierarchy under {}"
                    + " (run the platform as root on a host with cgroups)", ROOT);
        }
        return procs;
    }

    /** Removes the sandbox's groups (they must be empty: the processes were killed first). */
    static void remove(String name) {
        for (Path g : List.of(ROOT.resolve("stockade").resolve(name), ROOT.resolve("memory/stockade").resolve(name),
                ROOT.resolve("cpu/stockade").resolve(name))) {
            try {
                Files.deleteIfExists(g);
            } catch (IOException e) {
                // a group with a process left in it stays; the next provision reuses it
            }
        }
    }
}
