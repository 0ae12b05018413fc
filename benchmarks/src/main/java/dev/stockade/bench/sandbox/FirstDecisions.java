package dev.stockade.bench.sandbox;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.proxy.feed.FeedApplier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A replica's first decision for a sample of sandboxes after a write: as soon as a sampled sandbox's set is in force,
 * one of two prober threads (as an agent's connection would) asks the replica to decide the host the write added and
 * records when it is allowed. A decision taken before the program is compiled pays the compile, so this is the
 * latency the write costs an active sandbox, not only the time its set is installed.
 */
final class FirstDecisions {
    private final FeedApplier applier;
    private final int every;
    private final ExecutorService probers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "first-decision");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Long> decided = new ConcurrentHashMap<>();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger sampled = new AtomicInteger();
    private volatile String host;

    FirstDecisions(FeedApplier applier, int every) {
        this.applier = applier;
        this.every = every;
    }

    /** The host each sampled sandbox's next decision must allow (the write's new entry); forgets the last round. */
    void expect(String added) {
        decided.clear();
        sampled.set(0);
        host = added;
    }

    /** A set came into force (called on the replica's installing thread: the decision runs elsewhere). */
    void inForce(String sandboxId) {
        String h = host;
        if (h == null || Math.floorMod(sandboxId.hashCode(), every) != 0) {
            return;
        }
        sampled.incrementAndGet();
        probers.execute(() -> {
            Enforcement e = applier.enforcement(sandboxId).orElseThrow();
            boolean allowed = e.program().decideConnection(EgressRequest.connection("https", h, 443, h, sandboxId))
                    .allowed();
            long at = System.nanoTime();
            if (allowed) {
                decided.put(sandboxId, at);
            } else {
                refused.incrementAndGet(); // in force but not deciding under the new set: a wrong replica
            }
        });
    }

    /** Waits for the decision of every sandbox sampled this round; each one's time after {@code from}, in ms. */
    List<Double> await(long from) throws InterruptedException {
        for (int i = 0; i < 2_000 && decided.size() + refused.get() < sampled.get(); i++) {
            Thread.sleep(5); // the probers decide on their own threads
        }
        List<Double> ms = new ArrayList<>();
        decided.values().forEach(t -> ms.add((t - from) / 1e6));
        if (refused.get() > 0) {
            throw new IllegalStateException(refused.get() + " sampled sandboxes did not allow " + host
                    + " once their set was in force");
        }
        if (ms.isEmpty()) {
            throw new IllegalStateException("no sampled sandbox decided under the new set");
        }
        return ms;
    }
}
