package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CPU and memory limits for a sandbox's process tree: cgroup v2 ({@code memory.max}, {@code cpu.max}) where the
 * unified hierarchy is mounted, otherwise cgroup v1's memory and cpu controllers. A sandbox runs in the group of the
 * network slot it holds ({@link #ofSlot}), made and joined before the sandbox is known (joining a group is the slow
 * part: the kernel waits for a grace period) and given the sandbox's limits when it starts. Where no hierarchy is
 * writable the limits are not enforced and the provisioner says so once, loudly.
 */
final class Cgroups {
    private static final Logger LOG = LoggerFactory.getLogger(Cgroups.class);
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_US = 100_000;
    private static final long KILL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static volatile boolean warned;

    private Cgroups() {
    }

    /** The group of network slot {@code slot}; slots are the host's, so the name is no other platform's. */
    static String ofSlot(int slot) {
        return "slot-" + slot;
    }

    /** Creates the groups (no limits yet); returns the {@code cgroup.procs} files to join, none where not writable. */
    static List<Path> create(String name) {
        List<Path> procs = new ArrayList<>();
        try {
            for (Path g : groups(name)) {
                Files.createDirectories(g);
                procs.add(g.resolve("cgroup.procs"));
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

    /**
     * Sets the limits of groups {@link #create} made; nothing where it made none. A group that exists and refuses its
     * limits fails the start: the sandbox does not run without them.
     */
    static void limit(String name, long cpuMillis, long memoryBytes) throws ProvisionException {
        List<Path> groups = groups(name);
        if (groups.isEmpty() || !Files.isDirectory(groups.get(0))) {
            return;
        }
        String quota = Long.toString(cpuMillis * PERIOD_US / 1000);
        try {
            if (unified()) {
                Files.writeString(groups.get(0).resolve("memory.max"), Long.toString(memoryBytes));
                Files.writeString(groups.get(0).resolve("cpu.max"), quota + " " + PERIOD_US);
            } else {
                Files.writeString(groups.get(0).resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
                Files.writeString(groups.get(1).resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
                Files.writeString(groups.get(1).resolve("cpu.cfs_quota_us"), quota);
            }
        } catch (IOException e) {
            throw new ProvisionException("cannot set the sandbox's cpu and memory limits: " + e.getMessage());
        }
    }

    /** The group's folders: the unified one, or v1's memory then cpu; none without a hierarchy to write. */
    private static List<Path> groups(String name) {
        if (unified()) {
            return List.of(ROOT.resolve("stockade").resolve(name));
        }
        if (Files.isDirectory(ROOT.resolve("memory")) && Files.isDirectory(ROOT.resolve("cpu"))) {
            return List.of(ROOT.resolve("memory/stockade").resolve(name), ROOT.resolve("cpu/stockade").resolve(name));
        }
        return List.of();
    }

    private static boolean unified() {
        return Files.exists(ROOT.resolve("cgroup.controllers"));
    }

    /**
     * Kills (SIGKILL) every process in the groups until they are empty, for at most two seconds. A slot's group holds
     * everything of its sandbox, including what the kill of its process tree can miss (a namespace init that
     * bubblewrap forked just as its launcher was killed lives on, orphaned); nothing of it may run on, let alone in
     * the group of the slot's next sandbox. Nothing happens where the groups do not exist.
     */
    static void killAll(String name) {
        List<Path> groups = groups(name);
        long until = System.nanoTime() + KILL_WAIT_NANOS;
        for (Set<Long> left = members(groups); !left.isEmpty(); left = members(groups)) {
            if (System.nanoTime() - until > 0) {
                LOG.warn("{} processes stay in sandbox group {} after SIGKILL", left.size(), name);
                return;
            }
            left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            try {
                Thread.sleep(5); // a killed process leaves the group as it exits, a few milliseconds later
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The processes in the groups (never this one); none where a group does not exist. */
    private static Set<Long> members(List<Path> groups) {
        Set<Long> pids = new TreeSet<>();
        for (Path g : groups) {
            try {
                for (String line : Files.readAllLines(g.resolve("cgroup.procs"))) {
                    if (!line.isBlank()) {
                        pids.add(Long.parseLong(line.strip()));
                    }
                }
            } catch (IOException | NumberFormatException gone) {
                // no such group: nothing in it
            }
        }
        pids.remove(ProcessHandle.current().pid());
        return pids;
    }

    /** Removes the groups (they must be empty: the processes were killed first). */
    static void remove(String name) {
        for (Path g : List.of(ROOT.resolve("stockade").resolve(name), ROOT.resolve("memory/stockade").resolve(name),
                ROOT.resolve("cpu/stockade").resolve(name))) {
            try {
                Files.deleteIfExists(g);
            } catch (IOException e) {
                // a group with a process left in it stays; the slot's next sandbox uses it again
            }
        }
    }
}
