package dev.stockade.bench.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.proxy.feed.ControlPlaneSource;
import dev.stockade.proxy.feed.FeedApplier;
import dev.stockade.testing.DebianPostgres;
import dev.stockade.testing.PlatformFront;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Issue 30's replicas at scale: two platform replicas (A and B, {@code stockade-platform.jar --database-url}) on
 * Debian's PostgreSQL server, N local sandboxes on B (each with the project's shared policy plus 100 entries of its
 * own, as in {@link EnforcementBench}), and three proxy replicas following the platform through one front address
 * that sends each connection to A while A lives and to B after ({@link PlatformFront}): a feed follower in this JVM,
 * which times each set's arrival, and two separate {@code stockade-proxy} processes.
 * <ol>
 *   <li>half the rewrites of the shared policy, timed from the write's acknowledgement to the set in force at the
 *       follower;</li>
 *   <li>eight writers create policies through A; after 60 acknowledgements A and proxy 1 are killed with SIGKILL:
 *       every acknowledged policy must read back through B with its audit entry, and the feeds must resume on B
 *       after the version they had ({@link ReplicaFailover});</li>
 *   <li>the other rewrites through B (proxy 1 still down for the first), then proxy 1 started again on its data
 *       directory, timed to its next full sync;</li>
 *   <li>auto-stop timers set before and just before A's death fire exactly once each;</li>
 *   <li>a halt through B with one held connection per sandbox, timed to every connection closed.</li>
 * </ol>
 * Needs root, bubblewrap, iproute2, Debian's {@code postgresql-15} and the built jars. Usage: {@code java -cp
 * benchmarks/target/benchmarks.jar dev.stockade.bench.sandbox.ReplicaBench [sandboxes] [rounds]}; with
 * {@code -Dbench.settle=true} the first round waits until the machine is idle after the set-up ({@link Settle}).
 */
public final class ReplicaBench {
    private ReplicaBench() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        Path dir = Files.createTempDirectory("stockade-replica-bench");
        try (DebianPostgres pg = DebianPostgres.start(); Tunnels.Origin origin = Tunnels.Origin.start()) {
            String url = pg.newDatabase("stockade");
            Path config = dir.resolve("platform.yaml");
            Files.writeString(config, "sandbox:\n  timers:\n    interval: 1s\n"); // timers checked every second
            shareKey(dir.resolve("a"), dir.resolve("b"));
            // each replica's in-process egress proxy on a free port of the shared bridge address
            Map<String, String> env = Map.of("SANDBOX_EGRESS_ALLOW_LOOPBACK_ORIGINS", "true", "SANDBOX_EGRESS_RESOLVE",
                    "origin.bench=127.0.0.1", "SANDBOX_EGRESS_PORT", "0");
            int portA = freePort();
            int portB = freePort();
            try (BenchPlatform a = BenchPlatform.replica(dir.resolve("a"), portA, url, config, dir.resolve("a"), env)) {
                // the dev hub keeps its fleets in a file: B must know the fleet A enrolled, as one real hub would
                Files.copy(dir.resolve("a").resolve("dev-hub.json"), dir.resolve("b").resolve("dev-hub.json"));
                try (BenchPlatform b = BenchPlatform.replica(dir.resolve("b"), portB, url, config, dir.resolve("a"),
                        env);
                     PlatformFront front = new PlatformFront(List.of(portA, portB))) {
                    run(new ReplicaFailover(dir, a, b, front, portB), origin, count, rounds);
                }
            }
        } finally {
            dev.stockade.bench.Scratch.remove(dir);
        }
    }

    private static void run(ReplicaFailover replicas, Tunnels.Origin origin, int count, int rounds) throws Exception {
        BenchPlatform a = replicas.a();
        BenchPlatform b = replicas.b();
        String org = a.send("POST", "/v1/orgs", "{\"name\":\"bench\"}").path("id").asText();
        String project = a.send("POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"p\"}").path("id").asText();
        String timers = a.send("POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"timers\"}").path("id").asText();
        String policy = a.send("POST", "/v1/projects/" + project + "/policies",
                EnforcementBench.shared(0).toString()).path("id").asText();
        Path tokenFile = replicas.dir().resolve("proxy-token");
        Files.writeString(tokenFile, a.send("POST", "/v1/proxy-tokens", "{\"name\":\"bench\"}").path("token")
                .asText());

        Map<String, Long> applied = new ConcurrentHashMap<>();
        Set<String> timed = ConcurrentHashMap.newKeySet(); // the benchmark's sandboxes, not the timers'
        FeedApplier applier = new FeedApplier(SandboxRegistry.dynamic(), names -> { }, line -> { });
        String frontBase = "http://127.0.0.1:" + replicas.front().port();
        try (ControlPlaneSource follower = new ControlPlaneSource(URI.create(frontBase), Files.readString(tokenFile),
                applier, line -> { }, set -> {
                    if (timed.isEmpty() || timed.contains(set.sandboxId())) {
                        applied.put(set.sandboxId(), System.nanoTime());
                    }
                }, Duration.ofSeconds(45)).start()) {
            long t0 = System.nanoTime();
            List<String> paths = EnforcementBench.create(b, project, policy, count);
            paths.forEach(p -> timed.add(p.substring(p.lastIndexOf('/') + 1)));
            EnforcementBench.awaitApplied(applied, count);
            // started once the sandboxes run, so that their first full sync (the line they log once) holds all N
            ProxyProcess p1 = ProxyProcess.start(replicas.dir(), frontBase, tokenFile);
            ProxyProcess p2 = ProxyProcess.start(replicas.dir(), frontBase, tokenFile);
            try {
                p1.awaitSynced(count);
                p2.awaitSynced(count);
                System.out.printf("%d sandboxes running on B and in force at the follower and both proxy processes"
                        + " %.1f s after the first create%n", count, (System.nanoTime() - t0) / 1e9);
                List<String> early = replicas.timerSandboxes(timers, 3);
                if (Boolean.getBoolean("bench.settle")) {
                    // the proxy processes just started: their background compiles and JIT warm-up, not the writes
                    System.out.printf("machine idle again %.1f s after the set-up%n", Settle.await(0.8, 120));
                }

                List<Double> before = new ArrayList<>();
                for (int round = 1; round <= rounds / 2; round++) {
                    before.addAll(rewrite(a, project, policy, round, applied, count));
                }
                List<String> late = replicas.timerSandboxes(timers, 3); // due one minute after A's death
                long syncsBefore = p1.syncs();
                ProxyProcess first = p1;
                replicas.killAUnderWrites(org, project, first::kill);
                replicas.assertFeedsResumed(2);
                List<Double> after = new ArrayList<>();
                for (int round = rounds / 2 + 1; round <= rounds; round++) {
                    after.addAll(rewrite(b, project, policy, round, applied, count));
                    if (round == rounds / 2 + 1) {
                        p1 = restart(p1, syncsBefore);
                    }
                }
                // which replica re-published each write, and how long it took (the replicas' own logs)
                for (BenchPlatform p : List.of(a, b)) {
                    List<String> lines = new ArrayList<>(p.logLines("re-enforced " + count + " "));
                    lines.addAll(p.logLines("shared list(s) [policy:" + policy + "]")); // a write re-publishing its list
                    lines.forEach(l -> System.out.println("  " + (p == a ? "A" : "B") + ": " + l));
                }
                BenchPlatform.report("write acknowledged -> in force, rounds before A's death (through A)", before);
                BenchPlatform.report("write acknowledged -> in force, rounds after A's death (through B)", after);
                replicas.assertTimersFiredOnce(org, early, late);
                halt(b, org, paths, origin);
                EnforcementBench.delete(b, paths);
            } finally {
                p1.close();
                p2.close();
            }
        }
    }

    /** One rewrite of the shared policy through {@code via}; per sandbox, acknowledgement to in force, in ms. */
    private static List<Double> rewrite(BenchPlatform via, String project, String policy, int round,
                                        Map<String, Long> applied, int count) throws Exception {
        Thread.sleep(EnforcementBench.BETWEEN_WRITES_MS); // as in EnforcementBench: writes are people's
        applied.clear();
        long t0 = System.nanoTime();
        via.send("PATCH", "/v1/projects/" + project + "/policies/" + policy,
                EnforcementBench.shared(round).toString());
        long acknowledged = System.nanoTime();
        EnforcementBench.awaitApplied(applied, count);
        List<Double> ms = new ArrayList<>();
        applied.values().forEach(t -> ms.add((t - acknowledged) / 1e6));
        BenchPlatform.report("write acknowledged -> in force at the follower, round " + round, ms);
        System.out.printf("  write answered %.1f ms after it was sent (at %s); first set in force %.1f ms after the"
                + " answer%n", (acknowledged - t0) / 1e6, java.time.LocalTime.now().minusNanos(System.nanoTime()
                - acknowledged), Collections.min(ms));
        return ms;
    }

    /** Starts proxy 1 again on its data directory and times it to its next full sync. */
    private static ProxyProcess restart(ProxyProcess killed, long syncsBefore) throws Exception {
        long t0 = System.nanoTime();
        ProxyProcess p = killed.restart();
        for (int i = 0; i < 3000 && p.syncs() <= syncsBefore; i++) {
            Thread.sleep(100); // the replica reads the feed again: poll its log
        }
        if (p.syncs() <= syncsBefore) {
            p.close();
            throw new IllegalStateException("proxy 1 did not sync again within 5 minutes of its restart");
        }
        System.out.printf("proxy 1, killed with A and started again after the first rewrite through B: in sync"
                + " again %.1f s after its start%n", (System.nanoTime() - t0) / 1e9);
        return p;
    }

    private static void halt(BenchPlatform b, String org, List<String> paths, Tunnels.Origin origin)
            throws Exception {
        List<String> tokens = EnforcementBench.tokens(b, paths);
        try (Tunnels tunnels = Tunnels.open(tokens, origin)) {
            long t0 = System.nanoTime();
            b.send("POST", "/v1/orgs/" + org + "/halt", null);
            List<Double> closed = tunnels.awaitClosed(t0, Duration.ofSeconds(60));
            BenchPlatform.report("halt through B -> open connection closed (" + tokens.size() + ")", closed);
            System.out.printf("  last of %d connections closed %.1f ms after the halt was sent%n", closed.size(),
                    Collections.max(closed));
        }
        b.send("DELETE", "/v1/orgs/" + org + "/halt", null);
    }

    /** One key-encryption key in every data directory: replicas on one database open each other's sealed secrets. */
    private static void shareKey(Path... dataDirs) throws Exception {
        AeadConfig.register();
        String keyset = TinkJsonProtoKeysetFormat.serializeKeyset(
                KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM), InsecureSecretKeyAccess.get());
        for (Path dir : dataDirs) {
            Path file = Files.createDirectories(dir.resolve("keys")).resolve("kek.json");
            Files.writeString(file, keyset);
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Reads a JSON page's items, for the checks in {@link ReplicaFailover}. */
    static List<JsonNode> items(JsonNode page) {
        List<JsonNode> out = new ArrayList<>();
        page.path("items").forEach(out::add);
        return out;
    }
}
