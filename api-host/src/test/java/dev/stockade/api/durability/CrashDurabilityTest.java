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
 * What the API acknowledged survives a crash of the whole machine's worth of processes: during a burst of writes the
 * real {@code stockade serve} process and its embedded PostgreSQL (its own process group: pg_ctl detaches the
 * postmaster with setsid) are killed with SIGKILL in one {@code kill}, so the database gets no shutdown checkpoint;
 * the platform restarts on the same data directory (PostgreSQL replays its WAL), and every project whose creation
 * was answered 201 is there, with its audit entry.
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
            Await.until("150 acknowledged project creations before the kill", Await.LONG,
                    () -> acknowledged.size() >= 150);
            crash(first, dir.resolve("pg"));
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

    /**
     * SIGKILL to the platform and to the PostgreSQL process group at once, then waits until every one of them is
     * gone; the database's lock file stays behind, the sign that it was never stopped.
     */
    private static void crash(Process platform, Path pg) throws Exception {
        long postmaster = Long.parseLong(Files.readAllLines(pg.resolve("postmaster.pid")).get(0).trim());
        long group = processGroup(postmaster);
        List<ProcessHandle> doomed = new ArrayList<>(platform.descendants().toList());
        ProcessHandle.of(postmaster).ifPresent(p -> {
            doomed.add(p);
            doomed.addAll(p.descendants().toList());
        });
        assertThat(doomed).as("the postmaster and its backends are running").isNotEmpty();
        Process kill = new ProcessBuilder("kill", "-KILL", "--", Long.toString(platform.pid()), "-" + group)
                .redirectErrorStream(true).start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as(new String(kill.getInputStream().readAllBytes())).isZero();
        assertThat(platform.waitFor(30, TimeUnit.SECONDS)).isTrue();
        for (ProcessHandle p : doomed) {
            p.onExit().get(30, TimeUnit.SECONDS);
        }
        assertThat(pg.resolve("postmaster.pid")).as("PostgreSQL was killed, not stopped").exists();
    }

    /** The process group of {@code pid} ({@code /proc/<pid>/stat}, the field after the state). */
    private static long processGroup(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long group = Long.parseLong(after[2]);
        assertThat(group).as("the postmaster leads its own process group (not the test's)")
                .isEqualTo(pid);
        return group;
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
