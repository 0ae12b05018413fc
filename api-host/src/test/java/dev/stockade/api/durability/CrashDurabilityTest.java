package dev.stockade.api.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the API acknowledged survives a SIGKILL: the real {@code stockade serve} process (embedded PostgreSQL in its
 * data directory) is killed during a burst of writes, restarted on the same directory, and every project whose
 * creation was answered 201 is there, with its audit entry.
 */
class CrashDurabilityTest {

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everythingAcknowledgedBeforeASigkillIsThereAfterARestart() throws Exception {
        Path dir = dev.stockade.api.support.Scratch.directory("stockade-crash");
        int port = freePort();
        Process first = start(dir, port);
        Http http = new Http(URI.create("http://127.0.0.1:" + port));
        try {
            awaitEnrolled(http, first);
            String owner = Files.readString(dir.resolve("owner-token")).trim();
            String org = http.post("/v1/orgs", owner, Map.of("name", "crash")).text("id");
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            AtomicBoolean go = new AtomicBoolean(true);
            ExecutorService writers = Executors.newFixedThreadPool(8);
            for (int w = 0; w < 8; w++) {
                int writer = w;
                writers.execute(() -> {
                    for (int i = 0; go.get(); i++) {
                        try {
                            Http.Response r = http.post("/v1/orgs/" + org + "/projects", owner,
                                    Map.of("name", "p-" + writer + "-" + i));
                            if (r.status() == 201) {
                                acknowledged.add(r.text("id"));
                            }
                        } catch (RuntimeException connectionLost) {
                            return;
                        }
                    }
                });
            }
            Await.until("150 acknowledged project creations before the kill", Await.LONG, () -> acknowledged.size() >= 150);
            first.destroyForcibly(); // SIGKILL: no shutdown hook, no orderly database stop
            first.waitFor(30, TimeUnit.SECONDS);
            go.set(false);
            writers.shutdown();
            writers.awaitTermination(30, TimeUnit.SECONDS);

            Process second = start(dir, port);
            try {
                awaitEnrolled(http, second);
                List<String> lost = new ArrayList<>();
                for (String id : acknowledged) {
                    if (http.get("/v1/projects/" + id, owner).status() != 200) {
                        lost.add(id);
                    }
                }
                assertThat(lost).as("acknowledged projects lost after SIGKILL (of %d)", acknowledged.size()).isEmpty();
                Set<String> audited = ConcurrentHashMap.newKeySet();
                String cursor = null;
                String cursorId = null;
                do {
                    Http.Response page = http.get("/v1/orgs/" + org + "/audit-trail?kind=project&action=create&limit=500"
                            + (cursor == null ? "" : "&cursor=" + cursor + "&cursorId=" + cursorId), owner);
                    page.body().path("items").forEach(e -> audited.add(e.path("target").asText()));
                    cursor = page.body().path("nextCursor").isNull() ? null : page.body().path("nextCursor").asText();
                    cursorId = page.body().path("nextCursorId").asText();
                } while (cursor != null);
                assertThat(audited).containsAll(acknowledged);
            } finally {
                second.destroy();
                second.waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            first.destroyForcibly();
        }
    }

    private static Process start(Path dir, int port) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.stockade.api.ServeMain", "--data-dir", dir.toString(), "--port", String.valueOf(port), "--dev-hub")
                .redirectErrorStream(true).redirectOutput(dir.resolve("serve-" + System.nanoTime() + ".log").toFile());
        pb.environment().put("SANDBOX_EGRESS_PORT", "0"); // the egress proxy on any free port: tests may overlap
        return pb.start();
    }

    private static void awaitEnrolled(Http http, Process p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            assertThat(p.isAlive()).as("the platform process exited").isTrue();
            try {
                if (http.get("/v1/installation", null).body().path("enrolled").asBoolean()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            Thread.sleep(200); // poll the starting process, bounded by the 120 s deadline above
        }
        throw new AssertionError("the platform did not enroll within 120 s");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
