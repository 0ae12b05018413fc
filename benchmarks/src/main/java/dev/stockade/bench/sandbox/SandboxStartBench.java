package dev.stockade.bench.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Sandbox create to first successful exec on the local provisioner, through the REST API and the exec WebSocket,
 * against a platform started here ({@code java -jar api-host/target/stockade-platform.jar --dev-hub}); and, in the
 * same run, the floor of the mechanism: a bare {@code bwrap ... true} with the same namespaces. Needs root, bubblewrap
 * and iproute2. Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.sandbox.SandboxStartBench
 * [count]}.
 */
public final class SandboxStartBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private SandboxStartBench() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        Path dir = Files.createTempDirectory("stockade-sandbox-bench");
        int port = 18490;
        Process platform = new ProcessBuilder("java", "-jar", "api-host/target/stockade-platform.jar", "--dev-hub",
                "--data-dir", dir.toString(), "--port", Integer.toString(port)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("platform.log").toFile()).start();
        try {
            String base = "http://127.0.0.1:" + port;
            awaitEnrolled(base);
            String owner = Files.readString(dir.resolve("owner-token")).trim();
            String org = send(base, owner, "POST", "/v1/orgs", "{\"name\":\"bench\"}").path("id").asText();
            String project = send(base, owner, "POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"p\"}")
                    .path("id").asText();
            List<Double> api = new ArrayList<>();
            List<Double> created = new ArrayList<>();
            List<Double> running = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                long t0 = System.nanoTime();
                String id = send(base, owner, "POST", "/v1/projects/" + project + "/sandboxes",
                        "{\"name\":\"s" + i + "\",\"cpu\":\"250m\",\"memory\":\"128Mi\"}").path("id").asText();
                String path = "/v1/projects/" + project + "/sandboxes/" + id;
                created.add((System.nanoTime() - t0) / 1e6);
                while (!send(base, owner, "GET", path, null).path("state").asText().equals("running")) {
                    Thread.sleep(1); // poll the state as a client would, at 1 ms
                }
                running.add((System.nanoTime() - t0) / 1e6);
                int exit = exec(base, owner, path);
                api.add((System.nanoTime() - t0) / 1e6);
                if (exit != 0) {
                    throw new IllegalStateException("exec exited " + exit);
                }
                send(base, owner, "DELETE", path, null);
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
            report("create -> running -> exec `true` (REST + WebSocket)", api);
            report("  of which: POST create answered", created);
            report("  of which: GET says running", running);
            report("bare bwrap `true` (the floor, same namespaces)", floor);
        } finally {
            platform.destroy();
            platform.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void report(String what, List<Double> ms) {
        List<Double> s = new ArrayList<>(ms);
        Collections.sort(s);
        System.out.printf("%-55s n=%d p50=%.1f ms p90=%.1f ms p99=%.1f ms max=%.1f ms%n", what, s.size(),
                s.get(s.size() / 2), s.get((int) (s.size() * 0.9)), s.get(Math.min(s.size() - 1,
                        (int) Math.ceil(s.size() * 0.99) - 1)), s.get(s.size() - 1));
    }

    private static void awaitEnrolled(String base) throws Exception {
        for (int i = 0; i < 600; i++) {
            try {
                if (send(base, null, "GET", "/v1/installation", null).path("enrolled").asBoolean()) {
                    return;
                }
            } catch (java.io.IOException starting) {
                // not listening yet
            }
            Thread.sleep(200); // the platform starts: bounded poll
        }
        throw new IllegalStateException("the platform did not enroll");
    }

    private static JsonNode send(String base, String token, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
    }

    private static int exec(String base, String token, String path) throws Exception {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        WebSocket ws = HTTP.newWebSocketBuilder().header("Authorization", "Bearer " + token).buildAsync(
                URI.create(base.replace("http", "ws") + path + "/exec?command=true"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
                        byte[] f = new byte[data.remaining()];
                        data.get(f);
                        if (f.length == 5 && f[0] == 3) {
                            exit.complete(((f[1] & 0xff) << 24) | ((f[2] & 0xff) << 16) | ((f[3] & 0xff) << 8)
                                    | (f[4] & 0xff));
                        } else if (f.length == 1 && f[0] == 5) {
                            w.sendBinary(ByteBuffer.wrap(new byte[] {0}), true);
                        }
                        w.request(1);
                        return null;
                    }
                }).get(30, TimeUnit.SECONDS);
        int status = exit.get(60, TimeUnit.SECONDS);
        ws.abort();
        return status;
    }
}
