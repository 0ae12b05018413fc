package dev.stockade.bench.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sandbox create to first successful exec on the local provisioner, through the REST API and the exec WebSocket,
 * against a platform started here ({@code java -jar api-host/target/stockade-platform.jar --dev-hub}); and, in the
 * same run, the floor of the mechanism: a bare {@code bwrap ... true} with the same namespaces. Needs root, bubblewrap
 * and iproute2. Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.sandbox.SandboxStartBench
 * [count] [keep]}: with {@code keep} every sandbox stays running (flatness from the first to the last on one host)
 * and the spans are also reported per tenth of the run. {@code -Dbench.log=<file>} keeps the platform's log (with
 * {@code -Dbench.debug=true} the per-start phases of the worker and the provisioner are in it).
 * {@code -Dbench.start=poll|direct|both} (default both, alternating): the client polls {@code GET} every millisecond
 * until the sandbox runs and then opens the exec, or opens the exec right after the create (it waits for the start).
 */
public final class SandboxStartBench {
    private SandboxStartBench() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        boolean keep = args.length > 1 && args[1].equals("keep");
        String path = System.getProperty("bench.start", "both");
        if (!List.of("poll", "direct", "both").contains(path)) {
            throw new IllegalArgumentException("bench.start is poll, direct or both");
        }
        Map<String, String> env = Boolean.getBoolean("bench.debug")
                ? Map.of("LOGGER_LEVELS_DEV_STOCKADE_API_SANDBOX", "DEBUG") : Map.of();
        try (BenchPlatform platform = BenchPlatform.start(18490, env)) {
            String org = platform.send("POST", "/v1/orgs", "{\"name\":\"bench\"}").path("id").asText();
            String project = platform.send("POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"p\"}")
                    .path("id").asText();
            Spans poll = new Spans();
            Spans direct = new Spans();
            System.out.println("load before: " + load() + "; start path: " + path);
            for (int i = 0; i < count; i++) {
                boolean polling = path.equals("poll") || path.equals("both") && i % 2 == 0;
                String sandbox = startAndExec(platform, project, "s" + i, polling, polling ? poll : direct);
                if (!keep) {
                    platform.send("DELETE", sandbox, null);
                }
            }
            System.out.println("load after the sandboxes: " + load());
            List<Double> floor = floor(count);
            if (!poll.api.isEmpty()) {
                BenchPlatform.report("create -> running -> exec `true` (REST + WebSocket)", poll.api);
                BenchPlatform.report("  of which: POST create answered", poll.created);
                BenchPlatform.report("  of which: GET says running", poll.running);
            }
            if (!direct.api.isEmpty()) {
                BenchPlatform.report("create -> exec `true` at once (the exec waits for the start)", direct.api);
                BenchPlatform.report("  of which: POST create answered", direct.created);
            }
            BenchPlatform.report("bare bwrap `true` (the floor, same namespaces)", floor);
            if (keep) {
                if (poll.api.isEmpty()) {
                    deciles(direct.api, direct.created, "create -> exec at once", "POST create answered");
                } else {
                    deciles(poll.api, poll.running, "create -> exec", "create -> running");
                }
            }
            String log = System.getProperty("bench.log");
            if (log != null) {
                Files.copy(platform.dir.resolve("platform.log"), Path.of(log),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** The timed spans of one start path, in creation order. */
    private record Spans(List<Double> api, List<Double> created, List<Double> running) {
        Spans() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    /**
     * Creates a sandbox and runs {@code true} in it: after polling {@code GET} every millisecond until it says
     * {@code running} (a client that waits for the state), or at once (the exec waits for the start). Its path.
     */
    private static String startAndExec(BenchPlatform platform, String project, String name, boolean polling,
                                       Spans spans) throws Exception {
        long t0 = System.nanoTime();
        String id = platform.send("POST", "/v1/projects/" + project + "/sandboxes",
                "{\"name\":\"" + name + "\",\"cpu\":\"250m\",\"memory\":\"128Mi\"}").path("id").asText();
        String sandbox = "/v1/projects/" + project + "/sandboxes/" + id;
        spans.created.add((System.nanoTime() - t0) / 1e6);
        if (polling) {
            while (!platform.send("GET", sandbox, null).path("state").asText().equals("running")) {
                Thread.sleep(1); // poll the state as a client would, at 1 ms
            }
            spans.running.add((System.nanoTime() - t0) / 1e6);
        }
        int exit = platform.exec(sandbox, "true").status();
        spans.api.add((System.nanoTime() - t0) / 1e6);
        if (exit != 0) {
            throw new IllegalStateException("exec exited " + exit);
        }
        return sandbox;
    }

    private static List<Double> floor(int count) throws Exception {
        List<Double> floor = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder("bwrap", "--unshare-user", "--unshare-pid", "--unshare-ipc",
                    "--unshare-uts", "--unshare-net", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
                    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc",
                    "--dev", "/dev", "true").start();
            p.waitFor(30, TimeUnit.SECONDS);
            floor.add((System.nanoTime() - t0) / 1e6);
        }
        return floor;
    }

    /** The spans per tenth of the run, in creation order: flat means the last tenth costs what the first did. */
    private static void deciles(List<Double> api, List<Double> part, String whole, String partName) {
        int n = api.size();
        for (int d = 0; d < 10; d++) {
            int from = n * d / 10;
            int to = n * (d + 1) / 10;
            if (to > from) {
                BenchPlatform.report("sandboxes " + (from + 1) + "-" + to + ": " + whole, api.subList(from, to));
                BenchPlatform.report("sandboxes " + (from + 1) + "-" + to + ": " + partName, part.subList(from, to));
            }
        }
    }

    private static String load() throws java.io.IOException {
        return Files.readString(Path.of("/proc/loadavg")).strip();
    }
}
