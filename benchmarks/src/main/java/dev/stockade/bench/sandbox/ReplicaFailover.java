package dev.stockade.bench.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.testing.PlatformFront;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The failover half of {@link ReplicaBench}: two platform replicas on one database behind one front, the SIGKILL of A
 * during a burst of writes, and the checks the issue names (nothing acknowledged lost, feeds resumed on B after the
 * version they had, timers fired once). A check that fails ends the benchmark with the reason: its figures would not
 * describe a correct run.
 */
record ReplicaFailover(Path dir, BenchPlatform a, BenchPlatform b, PlatformFront front, int portB) {
    private static final int WRITERS = 8;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 60;

    /** What else dies with A (a proxy replica). */
    interface AlsoKilled {
        void kill() throws Exception;
    }

    /** {@code n} small sandboxes through B with an auto-stop one minute after they run; their API paths. */
    List<String> timerSandboxes(String project, int n) throws Exception {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = b.send("POST", "/v1/projects/" + project + "/sandboxes", "{\"name\":\"timer-"
                    + System.nanoTime() + "\",\"cpu\":\"100m\",\"memory\":\"64Mi\",\"autoStop\":\"1m\"}")
                    .path("id").asText();
            paths.add("/v1/projects/" + project + "/sandboxes/" + id);
        }
        return paths;
    }

    /**
     * Eight writers create policies through A; after 60 acknowledgements A and {@code alsoKilled} get SIGKILL while
     * the writers keep going. Then every acknowledged policy must read back through B, each with its audit entry.
     */
    void killAUnderWrites(String org, String project, AlsoKilled alsoKilled) throws Exception {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean go = new AtomicBoolean(true);
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writers.execute(() -> {
                for (int i = 0; go.get(); i++) {
                    try {
                        acknowledged.add(a.send("POST", "/v1/projects/" + project + "/policies", "{\"name\":\"burst-"
                                + writer + "-" + i + "\",\"allowedDomains\":[{\"pattern\":\"w" + writer
                                + ".test\",\"verdict\":\"allow\"}]}").path("id").asText());
                    } catch (Exception connectionLost) {
                        return; // A is gone: what it answered before is what counts
                    }
                }
            });
        }
        for (int i = 0; i < 1200 && acknowledged.size() < ACKNOWLEDGED_BEFORE_KILL; i++) {
            Thread.sleep(50); // the writers run on their own threads
        }
        long t0 = System.nanoTime();
        a.kill();
        alsoKilled.kill();
        go.set(false);
        writers.shutdown();
        writers.awaitTermination(60, TimeUnit.SECONDS);
        System.out.printf("A and proxy 1 killed with SIGKILL (%.1f ms) after %d policy writes acknowledged by A%n",
                (System.nanoTime() - t0) / 1e6, acknowledged.size());
        List<String> lost = new ArrayList<>();
        for (String id : acknowledged) {
            try {
                b.send("GET", "/v1/projects/" + project + "/policies/" + id, null);
            } catch (IllegalStateException missing) {
                lost.add(id);
            }
        }
        Set<String> audited = targets("kind=policy&action=create", org);
        if (!lost.isEmpty() || !audited.containsAll(acknowledged)) {
            throw new IllegalStateException("acknowledged writes lost after A's SIGKILL: " + lost.size() + " policies"
                    + " unreadable through B, " + acknowledged.stream().filter(id -> !audited.contains(id)).count()
                    + " without their audit entry");
        }
        System.out.printf("  all %d acknowledged policies read back through B, each with its audit entry%n",
                acknowledged.size());
    }

    /**
     * Waits until {@code followers} feed requests reached B after A's death and checks each asked to resume after a
     * version it had (not from zero).
     */
    void assertFeedsResumed(int followers) throws InterruptedException {
        long t0 = System.nanoTime();
        for (int i = 0; i < 1200 && onB().size() < followers; i++) {
            Thread.sleep(50); // the followers reconnect on their own schedule
        }
        List<PlatformFront.FeedRequest> onB = onB();
        if (onB.size() < followers || onB.stream().anyMatch(r -> r.after() <= 0)) {
            throw new IllegalStateException("feeds did not resume on B after a version they had: " + onB);
        }
        System.out.printf("  %d feeds resumed on B within %.1f s of A's death, after versions %s%n", onB.size(),
                (System.nanoTime() - t0) / 1e9, onB.stream().map(r -> Long.toString(r.after())).toList());
    }

    private List<PlatformFront.FeedRequest> onB() {
        return front.feedRequests().stream().filter(r -> r.replicaPort() == portB).toList();
    }

    /** Every timer sandbox is stopped by its auto-stop, with exactly one auto-stop entry in the trail. */
    void assertTimersFiredOnce(String org, List<String> early, List<String> late) throws Exception {
        List<String> all = new ArrayList<>(early);
        all.addAll(late);
        for (String path : all) {
            for (int i = 0; i < 1800 && !"stopped".equals(b.send("GET", path, null).path("state").asText()); i++) {
                Thread.sleep(100); // due one minute after it ran; timers are checked every second
            }
            JsonNode s = b.send("GET", path, null);
            if (!"auto-stop".equals(s.path("stoppedBy").asText())) {
                throw new IllegalStateException(path + " was not auto-stopped: " + s);
            }
        }
        List<String> entries = new ArrayList<>();
        String page = "/v1/orgs/" + org + "/audit-trail?kind=sandbox&action=auto-stop&limit=500";
        ReplicaBench.items(b.send("GET", page, null)).forEach(e -> entries.add(e.path("target").asText()));
        for (String path : all) {
            String id = path.substring(path.lastIndexOf('/') + 1);
            long fired = entries.stream().filter(id::equals).count();
            if (fired != 1) {
                throw new IllegalStateException("the auto-stop of " + id + " fired " + fired + " times");
            }
        }
        System.out.printf("%d auto-stop timers (%d due while both replicas ran, %d due after A's death) fired once"
                + " each%n", all.size(), early.size(), late.size());
    }

    /** The targets of the organization's audit entries matching {@code filter}, every page. */
    private Set<String> targets(String filter, String org) throws Exception {
        Set<String> out = new HashSet<>();
        String cursor = null;
        String cursorId = null;
        do {
            JsonNode page = b.send("GET", "/v1/orgs/" + org + "/audit-trail?" + filter + "&limit=500"
                    + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)
                    + "&cursorId=" + cursorId), null);
            ReplicaBench.items(page).forEach(e -> out.add(e.path("target").asText()));
            cursor = page.path("nextCursor").isNull() || page.path("nextCursor").isMissingNode() ? null
                    : page.path("nextCursor").asText();
            cursorId = page.path("nextCursorId").asText();
        } while (cursor != null);
        return out;
    }
}
