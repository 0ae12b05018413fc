package dev.stockade.bench.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.proxy.feed.ControlPlaneSource;
import dev.stockade.proxy.feed.FeedApplier;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Enforcement at scale, against the platform as a user runs it, with N real local sandboxes (default 1,000), each
 * enforcing a program of the project's shared policy plus an embedded policy of 100 entries of its own:
 * <ol>
 *   <li>a policy write to enforcement: {@code PATCH} the shared policy and time, per sandbox, until a proxy replica
 *       fed by the platform ({@link ControlPlaneSource}, in this JVM) has the sandbox's new set in force (every
 *       decision from then on is taken under it); for one sandbox in ten, until its first decision, taken as soon as
 *       the set is in force, allows the host the write added ({@link FirstDecisions}: that decision compiles the
 *       program if the background has not yet); and until every program is compiled;</li>
 *   <li>memory: the live heap of the replica in this JVM over its empty state, fresh and after the rewrites; and
 *       resident memory and live heap of a separate proxy process ({@code stockade-proxy --platform}) holding the N
 *       sandboxes' programs, beside the same process holding none;</li>
 *   <li>halt to every open connection closed: one held request per sandbox through the platform's in-process proxy
 *       (with each sandbox's own token), then {@code POST .../halt}, timing until each is closed ({@link Tunnels}).</li>
 * </ol>
 * Needs root, bubblewrap and iproute2, and the built jars; {@code BENCH_PLATFORM_JAVA_OPTIONS} is passed to the
 * platform's JVM (a flight recording, say). Usage: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.stockade.bench.sandbox.EnforcementBench [sandboxes] [rounds]}.
 */
public final class EnforcementBench {
    private static final int ENTRIES = 100;
    /** One sandbox in this many has its first decision after each write taken and timed (its agent is active). */
    private static final int PROBE_EVERY = 10;
    /** The quiet time before each write (each follower's background compiles 1,000 lists in well under this). */
    static final long BETWEEN_WRITES_MS = 3_000;
    private static final double MIB = 1024.0 * 1024.0;

    private EnforcementBench() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Map<String, String> env = new java.util.HashMap<>(Map.of("SANDBOX_EGRESS_ALLOW_LOOPBACK_ORIGINS", "true",
                "SANDBOX_EGRESS_RESOLVE", "origin.bench=127.0.0.1"));
        try (Tunnels.Origin origin = Tunnels.Origin.start();
             BenchPlatform platform = BenchPlatform.start(18491, env)) {
            String org = platform.send("POST", "/v1/orgs", "{\"name\":\"bench\"}").path("id").asText();
            String project = platform.send("POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"p\"}")
                    .path("id").asText();
            String policy = platform.send("POST", "/v1/projects/" + project + "/policies", shared(0).toString())
                    .path("id").asText();
            Path tokenFile = platform.dir.resolve("proxy-token");
            String proxyToken = platform.send("POST", "/v1/proxy-tokens", "{\"name\":\"bench\"}").path("token")
                    .asText();
            Files.writeString(tokenFile, proxyToken);

            Map<String, Long> applied = new ConcurrentHashMap<>();
            FeedApplier applier = new FeedApplier(SandboxRegistry.dynamic(), names -> { }, line -> { });
            FirstDecisions probe = new FirstDecisions(applier, PROBE_EVERY);
            try (ControlPlaneSource replica = new ControlPlaneSource(URI.create(platform.base), proxyToken, applier,
                    line -> { }, set -> {
                        applied.put(set.sandboxId(), System.nanoTime());
                        probe.inForce(set.sandboxId());
                    }, Duration.ofSeconds(45))
                    .start();
                 ProxyProcess empty = ProxyProcess.start(platform, tokenFile)) {
                long rssEmpty = empty.awaitSynced(0);
                long heapEmpty = empty.liveHeap();
                long replicaEmpty = FollowerBench.liveHeap();
                List<String> paths = create(platform, project, policy, count);
                awaitApplied(applied, count);
                long replicaFresh = FollowerBench.liveHeap();
                System.out.printf("%d sandboxes running, each with %d + 1 entries%n", count, ENTRIES);

                List<Double> all = new ArrayList<>();
                List<Double> allDecided = new ArrayList<>();
                // the first write after a start runs while the JIT still compiles the re-publication and feed paths
                List<Double> afterFirst = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    // writes are people's: let every follower (this replica, the platform's in-process proxy, the
                    // second proxy process) finish compiling the last write in the background before the next
                    Thread.sleep(BETWEEN_WRITES_MS);
                    applied.clear();
                    probe.expect("round-" + (round - 1) + ".example.com");
                    long t0 = System.nanoTime();
                    platform.send("PATCH", "/v1/projects/" + project + "/policies/" + policy,
                            shared(round).toString());
                    long acknowledged = System.nanoTime();
                    awaitApplied(applied, count);
                    applier.settleCompiled();
                    long compiled = System.nanoTime();
                    List<Double> decided = probe.await(acknowledged);
                    List<Double> ms = new ArrayList<>();
                    List<Double> sent = new ArrayList<>();
                    applied.values().forEach(t -> {
                        ms.add((t - acknowledged) / 1e6);
                        sent.add((t - t0) / 1e6);
                    });
                    BenchPlatform.report("write acknowledged -> in force at a replica, round " + round, ms);
                    BenchPlatform.report("  (from the write sent), round " + round, sent);
                    BenchPlatform.report("  write acknowledged -> a sampled sandbox's first decision taken under"
                            + " it, round " + round, decided);
                    System.out.printf("  every program compiled %.1f ms after the acknowledgement%n",
                            (compiled - acknowledged) / 1e6);
                    // where the time goes: the write's answer, then the first set in force
                    System.out.printf("  write answered %.1f ms after it was sent (at %s); first set in force %.1f ms"
                            + " after the answer%n", (acknowledged - t0) / 1e6, java.time.LocalTime.now().minusNanos(
                            System.nanoTime() - acknowledged), Collections.min(ms));
                    all.addAll(ms);
                    allDecided.addAll(decided);
                    if (round > 1) {
                        afterFirst.addAll(ms);
                    }
                }
                // the platform's own account of each write's re-publication (one line per governance event)
                platform.logLines("re-enforced").stream().skip(1)
                        .forEach(l -> System.out.println("  platform: " + l));
                BenchPlatform.report("write acknowledged -> in force at a replica, all rounds", all);
                if (!afterFirst.isEmpty()) {
                    BenchPlatform.report("write acknowledged -> in force at a replica, rounds after the first",
                            afterFirst);
                }
                BenchPlatform.report("write acknowledged -> first decision under it (every " + PROBE_EVERY
                        + "th sandbox), all rounds", allDecided);
                long replicaChurned = FollowerBench.liveHeap();
                System.out.printf("replica in this JVM, live heap over its empty state per sandbox: %.3f MiB fresh,"
                        + " %.3f MiB after %d rewrites (%d programs, %d compilations, %d documents fetched)%n",
                        (replicaFresh - replicaEmpty) / MIB / count, (replicaChurned - replicaEmpty) / MIB / count,
                        rounds, applier.programs(), applier.compilations(), applier.documents().fetched());

                try (ProxyProcess full = ProxyProcess.start(platform, tokenFile)) {
                    long rssFull = full.awaitSynced(count);
                    long heapFull = full.liveHeap();
                    System.out.printf("proxy process RSS: %d MiB holding 0 sandboxes, %d MiB holding %d sandboxes"
                            + " (%d entries each); the first process after following them: %d MiB%n",
                            rssEmpty >> 20, rssFull >> 20, count, ENTRIES + 1, empty.rss() >> 20);
                    System.out.printf("proxy process live heap: %.1f MiB holding 0 sandboxes, %.1f MiB holding %d"
                            + " (fresh process): %.3f MiB per sandbox; the first process after following the"
                            + " creations and rewrites: %.1f MiB, %.3f MiB per sandbox%n", heapEmpty / MIB,
                            heapFull / MIB, count, (heapFull - heapEmpty) / MIB / count, empty.liveHeap() / MIB,
                            (empty.liveHeap() - heapEmpty) / MIB / count);
                }

                List<String> tokens = tokens(platform, paths);
                for (int round = 1; round <= Math.max(1, rounds / 2); round++) {
                    try (Tunnels tunnels = Tunnels.open(tokens, origin)) {
                        long t0 = System.nanoTime();
                        platform.send("POST", "/v1/orgs/" + org + "/halt", null);
                        List<Double> closed = tunnels.awaitClosed(t0, Duration.ofSeconds(60));
                        BenchPlatform.report("halt -> open connection closed (" + tokens.size() + "), round "
                                + round, closed);
                        System.out.printf("  last of %d connections closed %.1f ms after the halt was sent%n",
                                closed.size(), Collections.max(closed));
                    }
                    platform.send("DELETE", "/v1/orgs/" + org + "/halt", null);
                }
                delete(platform, paths);
            }
        }
    }

    /** The project's shared policy; {@code round} adds as many extra entries, so each write changes it. */
    static ObjectNode shared(int round) {
        ObjectNode p = BenchPlatform.JSON.createObjectNode().put("name", "shared").put("networkDefaultVerdict", "deny");
        ArrayNode domains = p.putArray("allowedDomains");
        domains.addObject().put("pattern", "origin.bench").put("verdict", "allow");
        for (int i = 0; i < round; i++) {
            domains.addObject().put("pattern", "round-" + i + ".example.com").put("verdict", "allow");
        }
        return p;
    }

    static List<String> create(BenchPlatform platform, String project, String policy, int count)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> made = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int n = i;
                made.add(pool.submit(() -> {
                    ObjectNode body = BenchPlatform.JSON.createObjectNode().put("name", "s" + n).put("cpu", "100m")
                            .put("memory", "64Mi");
                    body.putArray("policies").add(policy);
                    ObjectNode own = body.putObject("policy").put("name", "own-" + n);
                    ArrayNode domains = own.putArray("allowedDomains");
                    for (int j = 0; j < ENTRIES; j++) {
                        domains.addObject().put("pattern", "h" + j + ".s" + n + ".example.com").put("verdict", "allow");
                    }
                    String id = platform.send("POST", "/v1/projects/" + project + "/sandboxes", body.toString())
                            .path("id").asText();
                    return "/v1/projects/" + project + "/sandboxes/" + id;
                }));
            }
            List<String> paths = new ArrayList<>();
            for (Future<String> f : made) {
                paths.add(f.get());
            }
            for (int i = 0; i < 3600; i++) {
                JsonNode items = platform.send("GET", "/v1/projects/" + project + "/sandboxes", null).path("items");
                long running = 0;
                for (JsonNode s : items) {
                    running += s.path("state").asText().equals("running") ? 1 : 0;
                }
                if (running == count) {
                    return paths;
                }
                Thread.sleep(500); // provisioning N sandboxes takes a while: poll the list
            }
            throw new IllegalStateException("not every sandbox reached running");
        } finally {
            pool.shutdown();
        }
    }

    static void awaitApplied(Map<String, Long> applied, int count) throws InterruptedException {
        for (int i = 0; i < 12_000 && applied.size() < count; i++) {
            Thread.sleep(5); // the replica applies on its own thread; the timestamps are taken there
        }
        if (applied.size() < count) {
            throw new IllegalStateException("only " + applied.size() + " of " + count + " sets arrived");
        }
    }

    /** Each sandbox's token, as the sandbox sees it: the password of its HTTPS_PROXY. */
    static List<String> tokens(BenchPlatform platform, List<String> paths) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> got = new ArrayList<>();
            for (String path : paths) {
                got.add(pool.submit(() -> platform.exec(path, "printenv", "HTTPS_PROXY").out().strip()));
            }
            List<String> proxies = new ArrayList<>();
            for (Future<String> f : got) {
                proxies.add(f.get());
            }
            return proxies;
        } finally {
            pool.shutdown();
        }
    }

    static void delete(BenchPlatform platform, List<String> paths) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<JsonNode>> done = new ArrayList<>();
            for (String path : paths) {
                done.add(pool.submit(() -> platform.send("DELETE", path, null)));
            }
            for (Future<JsonNode> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }
}
