package dev.stockade.api.sandbox.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Where a process's memory and cpu limits are, read from the kernel's own account ({@code /proc/<pid>/cgroup}). */
final class SandboxCgroups {
    private SandboxCgroups() {
    }

    /** The folder of the process's memory group (v1's memory hierarchy, or the unified one). */
    static Path memoryGroupOf(long pid) throws IOException {
        return groupOf(pid, "memory");
    }

    /** The folder of the process's cpu group. */
    static Path cpuGroupOf(long pid) throws IOException {
        return groupOf(pid, "cpu");
    }

    /** The memory group a sandbox holding network slot {@code slot} runs in. */
    static Path memoryGroupOfSlot(int slot) {
        Path v2 = Path.of("/sys/fs/cgroup/stockade/slot-" + slot);
        return Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers")) ? v2
                : Path.of("/sys/fs/cgroup/memory/stockade/slot-" + slot);
    }

    /** The command lines (arguments joined by spaces) of the processes in a group. */
    static List<String> commandsIn(Path group) throws IOException {
        List<String> out = new ArrayList<>();
        for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
            try {
                byte[] raw = Files.readAllBytes(Path.of("/proc", pid.strip(), "cmdline"));
                out.add(new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip());
            } catch (IOException gone) {
                // ended while it was read
            }
        }
        return out;
    }

    private static Path groupOf(long pid, String controller) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
            String[] f = line.split(":", 3);
            if (f[1].isEmpty() && Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers"))) {
                return Path.of("/sys/fs/cgroup" + f[2]);
            }
            for (String c : f[1].split(",")) {
                if (c.equals(controller)) {
                    return Path.of("/sys/fs/cgroup", controller + f[2]);
                }
            }
        }
        throw new IOException("process " + pid + " is in no " + controller + " group");
    }
}
