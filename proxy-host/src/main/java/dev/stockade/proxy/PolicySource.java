package dev.stockade.proxy;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The policy files a proxy enforces: grant policies and the organization ceiling (files or folders of
 * {@code .yaml}, {@code .yml}, {@code .json}), read, resolved and compiled into a decision program,
 * and hot-reloaded on change with an atomic swap. A load that fails switches to deny-all, loudly,
 * until a valid policy arrives: a sandbox that cannot parse its policy has no egress.
 */
public final class PolicySource implements Supplier<Enforcement>, AutoCloseable {

    /** The outcome of one load. */
    public record Load(long generation, boolean valid, List<String> problems) {
    }

    private final List<Path> grants;
    private final List<Path> ceiling;
    private final PrintStream log;
    private final AtomicReference<Enforcement> current = new AtomicReference<>(
            Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "no policy loaded yet"));
    private final AtomicReference<Load> last = new AtomicReference<>(new Load(0, false, List.of("not loaded")));
    private final AtomicLong generation = new AtomicLong();
    private final Object loadLock = new Object();
    private final List<java.util.function.Consumer<Load>> reloadListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private WatchService watcher;
    private final Set<Path> watchedFiles = new java.util.concurrent.CopyOnWriteArraySet<>();
    private final Set<Path> watchedFolders = new java.util.concurrent.CopyOnWriteArraySet<>();
    private Thread watchThread;

    private PolicySource(List<Path> grants, List<Path> ceiling, PrintStream log) {
        this.grants = List.copyOf(grants);
        this.ceiling = List.copyOf(ceiling);
        this.log = log;
    }

    /** Reads and compiles the policies once. Call {@link #watch()} to follow changes. */
    public static PolicySource load(List<Path> grants, List<Path> ceiling, PrintStream log) {
        PolicySource s = new PolicySource(grants, ceiling, log);
        s.reload();
        return s;
    }

    @Override
    public Enforcement get() {
        return current.get();
    }

    /**
     * Calls {@code listener} after every later load (valid or not), on the loading thread; a failing
     * listener never stops a reload.
     */
    public void onReload(java.util.function.Consumer<Load> listener) {
        reloadListeners.add(listener);
    }

    /** The last load's outcome. */
    public Load lastLoad() {
        return last.get();
    }

    /** Re-reads every file and swaps the enforcement atomically; an invalid set swaps in deny-all. */
    public Load reload() {
        synchronized (loadLock) {
            long gen = generation.incrementAndGet();
            List<String> problems = new ArrayList<>();
            List<Policy> grantPolicies = read(grants, problems);
            List<Policy> ceilingPolicies = read(ceiling, problems);
            if (grantPolicies.isEmpty() && problems.isEmpty()) {
                problems.add("no policy file found in " + grants);
            }
            Load load;
            if (!problems.isEmpty()) {
                current.set(Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE,
                        "the policy failed validation; all egress is denied until a valid policy arrives"));
                load = new Load(gen, false, List.copyOf(problems));
                log.println("stockade-proxy: POLICY INVALID, DENYING ALL EGRESS (" + problems.size() + " problem(s)):");
                problems.stream().limit(20).forEach(p -> log.println("  " + p));
            } else {
                try {
                    Resolution r = Resolver.resolve(InstallFacts.defaults(), ceilingPolicies, grantPolicies);
                    current.set(Enforcement.of(r, CompileOptions.defaults()));
                    load = new Load(gen, true, List.of());
                    log.println("stockade-proxy: policy loaded (" + grantPolicies.size() + " polic"
                            + (grantPolicies.size() == 1 ? "y" : "ies") + ", " + ceilingPolicies.size() + " ceiling)");
                } catch (RuntimeException e) {
                    current.set(Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the policy could not be compiled"));
                    load = new Load(gen, false, List.of("compile failed: " + e.getClass().getSimpleName()));
                    log.println("stockade-proxy: POLICY COMPILE FAILED, DENYING ALL EGRESS: " + e);
                }
            }
            last.set(load);
            for (java.util.function.Consumer<Load> l : reloadListeners) {
                try {
                    l.accept(load);
                } catch (RuntimeException e) {
                    log.println("stockade-proxy: reload listener failed: " + e.getClass().getSimpleName());
                }
            }
            loadLock.notifyAll();
            return load;
        }
    }

    /** Waits until a load after {@code generation} happened, up to {@code millis}; the latest load. */
    public Load awaitLoadAfter(long generation, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        synchronized (loadLock) {
            while (last.get().generation() <= generation) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    break;
                }
                loadLock.wait(left);
            }
            return last.get();
        }
    }

    /** Starts following the files: any change in their directories reloads. */
    public synchronized void watch() throws IOException {
        if (watcher != null) {
            return;
        }
        watcher = FileSystems.getDefault().newWatchService();
        Set<Path> dirs = new LinkedHashSet<>();
        for (Path p : concat()) {
            Path abs = p.toAbsolutePath().normalize();
            if (Files.isDirectory(abs)) {
                watchedFolders.add(abs);
                try (Stream<Path> sub = Files.walk(abs, 8)) {
                    sub.filter(Files::isDirectory).forEach(dirs::add);
                }
            } else {
                dirs.add(abs.getParent());
                watchedFiles.add(abs);
            }
        }
        for (Path d : dirs) {
            d.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
        }
        watchThread = new Thread(this::follow, "stockade-policy-watch");
        watchThread.setDaemon(true);
        watchThread.start();
    }

    private void follow() {
        try {
            while (true) {
                WatchKey key = watcher.take();
                // drain whatever else is queued so a burst of writes yields one reload
                List<WatchKey> keys = new ArrayList<>(List.of(key));
                for (WatchKey more = watcher.poll(); more != null; more = watcher.poll()) {
                    keys.add(more);
                }
                boolean relevant = false;
                for (WatchKey k : keys) {
                    Path dir = (Path) k.watchable();
                    for (var event : k.pollEvents()) {
                        relevant |= event.context() == null || concerns(dir.resolve((Path) event.context()));
                    }
                    k.reset();
                }
                if (relevant) {
                    reload();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closing
        }
    }

    /** Whether a changed path is one of the policy files (other files in the same folder are ignored). */
    private boolean concerns(Path changed) {
        Path abs = changed.toAbsolutePath().normalize();
        if (watchedFiles.contains(abs)) {
            return true;
        }
        String n = abs.getFileName().toString();
        boolean policyName = n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json") || Files.isDirectory(abs);
        return policyName && watchedFolders.stream().anyMatch(abs::startsWith);
    }

    private List<Path> concat() {
        List<Path> all = new ArrayList<>(grants);
        all.addAll(ceiling);
        return all;
    }

    private static List<Policy> read(List<Path> roots, List<String> problems) {
        List<Policy> out = new ArrayList<>();
        for (Path root : roots) {
            for (Path f : files(root, problems)) {
                // The core's bounded reader: a device, a pipe or a file over 1 MiB is refused before it is read.
                SourceFiles.Loaded loaded = SourceFiles.read(f);
                if (loaded instanceof SourceFiles.Unreadable unreadable) {
                    problems.add("cannot read " + unreadable.message());
                    continue;
                }
                String text = ((SourceFiles.Text) loaded).text();
                ReadResult r = PolicyReader.read(f.toString(), text);
                if (!r.valid() || r.policy() == null) {
                    for (Problem p : r.problems()) {
                        problems.add(f + ":" + p.line() + ":" + p.column() + ": " + p.code() + ": " + p.message());
                    }
                    if (r.problems().isEmpty()) {
                        problems.add(f + ": not a valid policy");
                    }
                    continue;
                }
                out.add(r.policy());
            }
        }
        return out;
    }

    private static List<Path> files(Path root, List<String> problems) {
        if (Files.isRegularFile(root)) {
            return List.of(root);
        }
        if (!Files.isDirectory(root)) {
            problems.add(root + (Files.exists(root) ? ": not a regular file or folder (a device, pipe or socket)"
                    : ": no such file or folder"));
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root, 8)) {
            return s.filter(Files::isRegularFile).filter(p -> {
                String n = p.getFileName().toString();
                return !n.startsWith(".") && (n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json"));
            }).sorted().toList();
        } catch (IOException e) {
            problems.add(root + ": cannot be listed");
            return List.of();
        }
    }

    /**
     * The enforcement of policies that are already read and valid (a control plane hands them over): resolved and
     * compiled by the core; when that fails, one that denies everything.
     */
    public static Enforcement compile(List<Policy> grants, List<Policy> ceiling) {
        try {
            return Enforcement.of(Resolver.resolve(InstallFacts.defaults(), ceiling, grants), CompileOptions.defaults());
        } catch (RuntimeException e) {
            return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the policy could not be compiled");
        }
    }

    @Override
    public synchronized void close() {
        if (watcher != null) {
            try {
                watcher.close();
            } catch (IOException e) {
                // closing anyway
            }
            watchThread.interrupt();
        }
    }
}
