package dev.stockade.bench.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Sandbox create to first successful exec on the local provisioner, through the REST API and the exec WebSocket,
 * against a platform started here ({@code java -jar api-host/target/stockade-platform.jar --dev-hub}); and, in the
 * same run, the floor of the mechanism: a bare {@code bwrap ... true} with the same namespaces. Needs root, bubblewrap
 * and iproute2. Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.sandbox.SandboxStartBench
 * [count]}.
 */
public final class SandboxStartBench {
    private SandboxStartBench() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        try (BenchPlatform platform = BenchPlatform.start(18490, java.util.Map.of())) {
            String org = platform.send("POST", "/v1/orgs", "{\"name\":\"bench\"}").path("id").asText();
            String project = platform.send("POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"p\"}")
                    .path("id").asText();
            List<Double> api = new ArrayList<>();
            List<Double> created = new ArrayList<>();
            List<Double> running = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                long t0 = System.nanoTime();
                String id = platform.send("POST", "/v1/projects/" + project + "/sandboxes",
                        "{\"name\":\"s" + i + "\",\"cpu\":\"250m\",\"memory\":\"128Mi\"}").path("id").asText();
                String path = "/v1/projects/" + project + "/sandboxes/" + id;
                created.add((System.nanoTime() - t0) / 1e6);
                while (!platform.send("GET", path, null).path("state").asText().equals("running")) {
                    Thread.sleep(1); // poll the state as a client would, at 1 ms
                }
                running.add((System.nanoTime() - t0) / 1e6);
                int exit = platform.exec(path, "true").status();
                api.add((System.nanoTime() - t0) / 1e6);
                if (exit != 0) {
                    throw new IllegalStateException("exec exited " + exit);
                }
                platform.send("DELETE", path, null);
            }
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
            BenchPlatform.report("create -> running -> exec `true` (REST + WebSocket)", api);
            BenchPlatform.report("  of which: POST create answered", created);
            BenchPlatform.report("  of which: GET says running", running);
            BenchPlatform.report("bare bwrap `true` (the floor, same namespaces)", floor);
        }
    }
}
