package dev.stockade.api.replicas;

import dev.stockade.api.support.SandboxShell;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.Requires;
import dev.stockade.api.support.Scratch;
import dev.stockade.testing.Await;
import dev.stockade.testing.DebianPostgres;
import dev.stockade.testing.PlatformFront;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 30's replica failover at small scale, with real processes on one real PostgreSQL (Debian's server): two
 * platform replicas ({@code stockade serve --database-url}), two proxy replicas ({@code stockade proxy --platform})
 * that reach the platform through one address in front of both ({@link PlatformFront}), and local sandboxes (bubblewrap)
 * on replica B. Replica A is killed with SIGKILL in the middle of a burst of policy writes, then a proxy replica; the
 * test checks that nothing acknowledged is lost, that the proxies' feeds resume after the version they had, that a
 * restarted proxy enforces the latest policy, that auto-stop timers fire once across the replicas, and that an MCP
 * session on B hears {@code notifications/tools/list_changed} for changes made on A and, after A's death, on B.
 */
class ReplicaFailoverTest {
    private final List<AutoCloseable> running = new ArrayList<>();
    private Path dir;
    private int portA;
    private int portB;
    private Http viaA;
    private Http viaB;
    private String owner;
    private String org;
    private String project;
    private int originPort;
    private String policyId;
    private String worker;
    private String member;
    private SandboxShell shell;
    private PlatformFront front;
    private ReplicaProxy p1;
    private ReplicaProxy p2;

    @AfterEach
    void stopAll() throws Exception {
        for (int i = running.size() - 1; i >= 0; i--) {
            running.get(i).close();
        }
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void killingAPlatformReplicaAndAProxyReplicaLosesNothingAcknowledged() throws Exception {
        Requires.root();
        Requires.bubblewrap();
        ReplicaProcess a = startPlatformsWithOnePolicy();
        // sandboxes run on B, the replica that stays up: the local provisioner's processes belong to one replica
        worker = sandbox("worker", Map.of("policies", List.of(policyId)));
        String early = sandbox("early", Map.of("autoStop", "1m"));
        startProxies();
        McpSession mcp = sessionOnBHearsAChangeThroughA();

        // a timer due while both replicas run fires once between them
        awaitAutoStop(early);
        String late = sandbox("late", Map.of("autoStop", "1m")); // set before A's death, due after it

        long versionBefore = p2.syncedVersion();
        Set<String> acknowledged = writeThroughAUntilKilled(a);
        long killed = System.nanoTime();
        List<PlatformFront.FeedRequest> resumed = assertFeedsResumed(versionBefore);
        long resumedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        assertNothingLost(acknowledged);

        // after A's death, a change through B still reaches the session on B
        assertThat(viaB.put(member, owner, Map.of("role", "MEMBER")).status()).isEqualTo(204);
        Await.until("list_changed on B for a change made through B", () -> mcp.listChanged() == 2);
        assertThat(mcp.streamOpen()).isTrue();
        assertThat(mcp.toolNames()).doesNotContain("create_sandbox");

        killedProxyComesBackOnTheLatestPolicy(versionBefore);
        awaitAutoStop(late);
        assertThat(autoStops(early)).as("the first timer still fired once").isEqualTo(1);
        System.out.printf("replica failover: %d policy writes acknowledged by A before its SIGKILL, all read back"
                + " through B; proxy feeds in sync at version %d resumed on B after %s within %d ms; the restarted"
                + " proxy synced at version %d%n", acknowledged.size(), versionBefore,
                resumed.stream().map(r -> Long.toString(r.after())).toList(), resumedMillis, p1.syncedVersion());
    }

    /** Debian's PostgreSQL, replicas A and B on it, and through A an organization, a project and its egress policy. */
    private ReplicaProcess startPlatformsWithOnePolicy() throws Exception {
        dir = Scratch.directory("stockade-replicas");
        originPort = origin();
        DebianPostgres pg = DebianPostgres.start();
        running.add(pg);
        String url = pg.newDatabase("stockade");
        portA = ReplicaProcess.freePort();
        portB = ReplicaProcess.freePort();
        ReplicaProcess a = startPlatforms(url);
        viaA = new Http(URI.create("http://127.0.0.1:" + portA));
        viaB = new Http(URI.create("http://127.0.0.1:" + portB));
        owner = Files.readString(dir.resolve("a").resolve("owner-token")).trim();
        org = viaA.post("/v1/orgs", owner, Map.of("name", "failover")).text("id");
        project = viaA.post("/v1/orgs/" + org + "/projects", owner, Map.of("name", "agents")).text("id");
        Http.Response policy = viaA.send("POST", "/v1/projects/" + project + "/policies", owner, "application/yaml",
                "name: egress\nnetworkDefaultVerdict: deny\nallowedDomains:\n  - pattern: allowed.test\n    verdict: allow\n");
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        policyId = policy.text("id");
        shell = new SandboxShell(portB, owner);
        return a;
    }

    /** Two proxy replicas behind the front (A first), each enforcing the sandbox's policy. */
    private void startProxies() throws Exception {
        Files.writeString(dir.resolve("proxy-token"), viaA.post("/v1/proxy-tokens", owner, Map.of("name", "edge"))
                .text("token"));
        front = new PlatformFront(List.of(portA, portB));
        running.add(front);
        p1 = proxy("proxy-1");
        p2 = proxy("proxy-2");
        for (ReplicaProxy p : List.of(p1, p2)) {
            assertThat(p.curl(shell, worker, "allowed.test")).endsWith("[200]");
            assertThat(p.curl(shell, worker, "other.test")).endsWith("[403]");
        }
    }

    /** An API token's MCP session on B; raising its role through A changes its tool list, and B says so. */
    private McpSession sessionOnBHearsAChangeThroughA() throws Exception {
        Http.Response agent = viaA.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        member = "/v1/projects/" + project + "/members/api-tokens/" + agent.text("id");
        assertThat(viaA.put(member, owner, Map.of("role", "MEMBER")).status()).isEqualTo(204);
        McpSession mcp = new McpSession(URI.create("http://127.0.0.1:" + portB + "/projects/" + project + "/mcp"),
                agent.text("token"));
        running.add(mcp);
        assertThat(mcp.toolNames()).doesNotContain("create_sandbox");
        assertThat(viaA.put(member, owner, Map.of("role", "ADMIN")).status()).isEqualTo(204);
        Await.until("list_changed on B for a change made through A", () -> mcp.listChanged() == 1);
        assertThat(mcp.toolNames()).contains("create_sandbox");
        return mcp;
    }

    /** Proxy 1 is killed; the policy widens while it is down; started again, it enforces the widened policy. */
    private void killedProxyComesBackOnTheLatestPolicy(long versionBefore) throws Exception {
        p1.process().kill();
        Http.Response widened = viaB.patch("/v1/projects/" + project + "/policies/" + policyId, owner,
                Map.of("name", "egress", "allowedDomains", List.of(Map.of("pattern", "allowed.test", "verdict", "allow"),
                        Map.of("pattern", "other.test", "verdict", "allow"))));
        assertThat(widened.status()).as(widened.raw()).isEqualTo(200);
        p2.until(shell, worker, "other.test", "[200]");
        p1.process().start();
        p1.process().awaitOutput("in sync at version", 2, Await.LONG);
        assertThat(p1.syncedVersion()).as("the restarted replica read every change up to the widening")
                .isGreaterThan(versionBefore);
        assertThat(p1.curl(shell, worker, "other.test")).endsWith("[200]");
        assertThat(p1.curl(shell, worker, "allowed.test")).endsWith("[200]");
    }

    /**
     * Starts A on an empty database (it migrates and enrolls against its dev hub), then B with the same
     * key-encryption key and the same dev hub's fleets.
     */
    private ReplicaProcess startPlatforms(String url) throws Exception {
        Path config = dir.resolve("platform.yaml");
        // timer rounds every second so a one-minute auto-stop fires within a second of being due; no warm pool
        Files.writeString(config, "sandbox:\n  timers:\n    interval: 1s\n  local:\n    warm-pool: 0\n");
        ReplicaProcess.shareKey(dir.resolve("a"), dir.resolve("b"));
        ReplicaProcess a = platform("platform-a", "a", portA, url, config);
        a.awaitOutput("platform listening on", 1, Await.LONG.multipliedBy(2));
        Http http = new Http(URI.create("http://127.0.0.1:" + portA));
        Await.until("A to enroll", Await.LONG, () -> http.get("/v1/installation", null).body().path("enrolled")
                .asBoolean());
        // the local dev hub keeps its fleets in a file: B's must know the fleet A enrolled, as one real hub would
        Files.copy(dir.resolve("a").resolve("dev-hub.json"), dir.resolve("b").resolve("dev-hub.json"));
        ReplicaProcess b = platform("platform-b", "b", portB, url, config);
        b.awaitOutput("platform listening on", 1, Await.LONG.multipliedBy(2));
        return a;
    }

    private ReplicaProcess platform(String name, String sub, int port, String url, Path config) {
        ReplicaProcess p = ReplicaProcess.platform(name, dir.resolve(sub), port, url, "postgres", config,
                "--dev-hub", "--database-pool-size", "6");
        running.add(p);
        return p.start();
    }

    /** Creates a sandbox through B and waits until it runs; its API path. */
    private String sandbox(String name, Map<String, Object> extra) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("name", name, "cpu", "250m", "memory", "128Mi"));
        body.putAll(extra);
        Http.Response created = viaB.post("/v1/projects/" + project + "/sandboxes", owner, body);
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        viaB.awaitState(path, owner, "running");
        return path;
    }

    private ReplicaProxy proxy(String name) {
        ReplicaProxy p = ReplicaProxy.start(name, dir, "http://127.0.0.1:" + front.port(), dir.resolve("proxy-token"),
                originPort);
        running.add(p.process());
        return p;
    }

    /** Waits for the sandbox's auto-stop and checks the trail holds exactly one auto-stop entry for it. */
    private void awaitAutoStop(String sandboxPath) {
        Await.until(sandboxPath + " to be auto-stopped", Duration.ofSeconds(100),
                () -> "stopped".equals(viaB.get(sandboxPath, owner).text("state")));
        assertThat(viaB.get(sandboxPath, owner).text("stoppedBy")).isEqualTo("auto-stop");
        assertThat(autoStops(sandboxPath)).as("auto-stop entries for " + sandboxPath).isEqualTo(1);
    }

    private long autoStops(String sandboxPath) {
        String id = sandboxPath.substring(sandboxPath.lastIndexOf('/') + 1);
        List<String> targets = new ArrayList<>();
        viaB.get("/v1/orgs/" + org + "/audit-trail?kind=sandbox&action=auto-stop&limit=500", owner).body()
                .path("items").forEach(e -> targets.add(e.path("target").asText()));
        return targets.stream().filter(id::equals).count();
    }

    /**
     * Eight writers create policies through A; once 60 are acknowledged A is killed with SIGKILL while they keep
     * writing. Returns the ids whose creation was answered 201.
     */
    private Set<String> writeThroughAUntilKilled(ReplicaProcess a) throws Exception {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean go = new AtomicBoolean(true);
        ExecutorService writers = Executors.newFixedThreadPool(8);
        for (int w = 0; w < 8; w++) {
            int writer = w;
            writers.execute(() -> {
                for (int i = 0; go.get(); i++) {
                    try {
                        Http.Response r = viaA.post("/v1/projects/" + project + "/policies", owner,
                                Map.of("name", "burst-" + writer + "-" + i, "allowedDomains",
                                        List.of(Map.of("pattern", "w" + writer + ".test", "verdict", "allow"))));
                        if (r.status() == 201) {
                            acknowledged.add(r.text("id"));
                        }
                    } catch (RuntimeException connectionLost) {
                        return;
                    }
                }
            });
        }
        Await.until("60 acknowledged policy writes through A", Await.LONG, () -> acknowledged.size() >= 60);
        a.kill();
        go.set(false);
        writers.shutdown();
        assertThat(writers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        return Set.copyOf(acknowledged);
    }

    /** Every acknowledged policy reads through B, and each has its audit entry (same transaction as the write). */
    private void assertNothingLost(Set<String> acknowledged) {
        List<String> lost = acknowledged.stream()
                .filter(id -> viaB.get("/v1/projects/" + project + "/policies/" + id, owner).status() != 200).toList();
        assertThat(lost).as("acknowledged policies lost after A's SIGKILL (of %d)", acknowledged.size()).isEmpty();
        Set<String> audited = ConcurrentHashMap.newKeySet();
        String cursor = null;
        String cursorId = null;
        do {
            Http.Response page = viaB.get("/v1/orgs/" + org + "/audit-trail?kind=policy&action=create&limit=500"
                    + (cursor == null ? "" : "&cursor=" + cursor + "&cursorId=" + cursorId), owner);
            page.body().path("items").forEach(e -> audited.add(e.path("target").asText()));
            cursor = page.body().path("nextCursor").isNull() ? null : page.body().path("nextCursor").asText();
            cursorId = page.body().path("nextCursorId").asText();
        } while (cursor != null);
        assertThat(audited).containsAll(acknowledged);
    }

    /**
     * Both proxies' feeds went through A until it died; each reconnected to B asking for the changes after the version
     * it had applied, not from zero.
     */
    private List<PlatformFront.FeedRequest> assertFeedsResumed(long versionBefore) {
        Await.until("both proxies' feeds to resume on B", Await.LONG, () -> front.feedRequests().stream()
                .filter(r -> r.replicaPort() == portB).count() >= 2);
        List<PlatformFront.FeedRequest> onB = front.feedRequests().stream().filter(r -> r.replicaPort() == portB)
                .toList();
        assertThat(onB).as("feed requests that reached B").allSatisfy(r ->
                assertThat(r.after()).as("resumed after").isGreaterThanOrEqualTo(versionBefore).isPositive());
        return onB;
    }

    /** The origin every allowed request reaches: one loopback HTTP server in this JVM. */
    private int origin() throws Exception {
        HttpServer origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.createContext("/", ex -> {
            byte[] body = ("origin saw " + ex.getRequestHeaders().getFirst("Host")).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.start();
        running.add(() -> origin.stop(0));
        return origin.getAddress().getPort();
    }
}
