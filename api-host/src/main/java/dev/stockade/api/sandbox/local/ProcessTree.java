package dev.stockade.api.sandbox.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A process's descendants, read from the kernel's per-thread {@code /proc/<pid>/task/<tid>/children} lists: the
 * subtree's own files only. {@link ProcessHandle#descendants()} reads the parent of every process on the host
 * instead: with a thousand sandboxes running (five thousand processes) that took 120-880 ms per call, once per exec
 * and per stop, against a few files here.
 */
final class ProcessTree {
    /** More than any sandbox's command should start; a bound on the walk, not a limit anyone reaches. */
    static final int MAX = 100_000;

    private ProcessTree() {
    }

    /** The pids below {@code pid}, parents before their children (empty when it has none or is gone). */
    static List<Long> descendants(long pid) {
        List<Long> out = new ArrayList<>();
        Deque<Long> todo = new ArrayDeque<>(children(pid));
        while (!todo.isEmpty() && out.size() < MAX) {
            long next = todo.poll();
            out.add(next);
            todo.addAll(children(next));
        }
        return out;
    }

    /** Kills {@code pid}'s descendants (SIGKILL), parents first so that none forks a replacement. */
    static void killDescendants(long pid) {
        for (long each : descendants(pid)) {
            ProcessHandle.of(each).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** The first child of {@code pid}'s main thread, or -1. */
    static long firstChild(long pid) {
        List<Long> c = childrenOf(pid, pid);
        return c.isEmpty() ? -1 : c.get(0);
    }

    /** The children of every thread of {@code pid}. */
    static List<Long> children(long pid) {
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                out.addAll(childrenOf(pid, Long.parseLong(task.getFileName().toString())));
            }
        } catch (IOException | NumberFormatException e) {
            return out; // gone meanwhile: no children to find
        }
        return out;
    }

    private static List<Long> childrenOf(long pid, long tid) {
        if (pid <= 0) {
            return List.of();
        }
        List<Long> out = new ArrayList<>();
        try {
            // readAllBytes: on Java 17 Files.readString of some /proc files returns their first byte only
            String text = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "task",
                    Long.toString(tid), "children")), java.nio.charset.StandardCharsets.US_ASCII).strip();
            for (String each : text.isEmpty() ? new String[0] : text.split(" ")) {
                out.add(Long.parseLong(each));
            }
        } catch (IOException | NumberFormatException e) {
            return List.of();
        }
        return out;
    }
}
