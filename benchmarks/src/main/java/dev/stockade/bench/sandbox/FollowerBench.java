package dev.stockade.bench.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.FeedApplier;
import dev.stockade.proxy.feed.SandboxSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The follower's side of "Enforcement at scale" without the platform: one {@link FeedApplier} takes N sets shaped as
 * {@link EnforcementBench} shapes them (the project's shared policy plus 100 entries of the sandbox's own), each
 * distinct document offered once and the sets naming them by hash as the feed's wire 2 sends them, then
 * {@code rounds} rewrites of the shared policy; prints the time each pass takes to be in force and the live heap per
 * sandbox over the empty applier (after full GCs), fresh and after the rewrites. Usage: {@code java -cp
 * benchmarks/target/benchmarks.jar dev.stockade.bench.sandbox.FollowerBench [sandboxes] [rounds]}.
 */
public final class FollowerBench {
    private static final int ENTRIES = 100;

    private FollowerBench() {
    }

    public static void main(String[] args) throws InterruptedException {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long empty = liveHeap();
        FeedApplier applier = new FeedApplier(SandboxRegistry.dynamic(), names -> { }, line -> { });
        List<String> own = new ArrayList<>();
        List<DocumentHash> ownHashes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            own.add(own(i).toString());
            ownHashes.add(DocumentHash.of(own.get(i))); // the platform hashes; the wire carries the hash
        }
        long version = 0;
        long fresh = 0;
        for (int round = 0; round <= rounds; round++) {
            long t0 = System.nanoTime();
            // as the feed sends them: each distinct document once (the shared one per round), then sets by hash
            DocumentHash shared = applier.documents().offer(shared(round).toString());
            for (int i = 0; i < count; i++) {
                if (round == 0) {
                    applier.documents().offer(ownHashes.get(i), own.get(i));
                }
                DocumentHash mine = ownHashes.get(i);
                applier.submit(new SandboxSet(++version, "sb-" + i, "org", "project", String.format("%064x", i),
                        List.of(shared, mine), List.of(), List.of()), s -> { });
            }
            applier.settle();
            System.out.printf("%s: %d sets in force in %.0f ms%n", round == 0 ? "creation" : "rewrite " + round,
                    count, (System.nanoTime() - t0) / 1e6);
            if (round == 0) {
                fresh = liveHeap();
            }
        }
        own.clear(); // the feed's texts and hashes are the platform's, not the follower's
        ownHashes.clear();
        long churned = liveHeap();
        System.out.printf("live heap over the empty applier: %.3f MiB per sandbox fresh, %.3f after %d rewrites"
                + " (%d sandboxes, %d distinct programs, %d compilations)%n", (fresh - empty) / 1048576.0 / count,
                (churned - empty) / 1048576.0 / count, rounds, applier.size(), applier.programs(),
                applier.compilations());
    }

    /** The live heap of this JVM after full collections, in bytes. */
    static long liveHeap() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc(); // a benchmark's own measurement: full collections before reading the heap
            Thread.sleep(100); // System.gc() returns before the collector's concurrent work ends: let it settle
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    /** The shared policy as {@link EnforcementBench} writes it in round {@code round}. */
    private static JsonNode shared(int round) {
        ObjectNode p = BenchPlatform.JSON.createObjectNode().put("name", "shared").put("networkDefaultVerdict", "deny");
        ArrayNode domains = p.putArray("allowedDomains");
        domains.addObject().put("pattern", "origin.bench").put("verdict", "allow");
        for (int i = 0; i < round; i++) {
            domains.addObject().put("pattern", "round-" + i + ".example.com").put("verdict", "allow");
        }
        return p;
    }

    private static JsonNode own(int n) {
        ObjectNode p = BenchPlatform.JSON.createObjectNode().put("name", "own-" + n);
        ArrayNode domains = p.putArray("allowedDomains");
        for (int j = 0; j < ENTRIES; j++) {
            domains.addObject().put("pattern", "h" + j + ".s" + n + ".example.com").put("verdict", "allow");
        }
        return p;
    }
}
