package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.FeedApplier;
import dev.stockade.proxy.feed.SandboxSet;
import dev.stockade.proxy.feed.SharedLists;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the proxy's sandbox registry equal to {@code sandbox_enforcement}: applies the changes after the last version
 * it applied, in order, whenever an {@code enforcement} event wakes it (and at start, from version 0). A sandbox whose
 * documents do not read or compile denies everything; a halted organization's sandboxes deny everything until the
 * halt is lifted, and their open connections are closed when it begins (proxy-host's {@link FeedApplier}, the same
 * code a separate proxy replica runs). One thread applies changes, so a sandbox's sets replace each other in version
 * order.
 */
final class EnforcementFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EnforcementFollower.class);

    private final EnforcementStore store;
    private final FeedBatches batches;
    private final FeedApplier applier;
    private final SharedLists lists = new SharedLists(); // on the follower's thread
    private final Supplier<Set<UUID>> haltedAtStart;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "egress-enforcement");
        t.setDaemon(true);
        return t;
    });
    private volatile long applied;

    /**
     * @param servedHere which sandboxes this proxy serves (those running on this host): only their programs compile
     *                   in the background; the rest, whose traffic goes to another replica's proxy, compile only if a
     *                   decision ever needs them
     */
    EnforcementFollower(EnforcementStore store, FeedBatches batches, SandboxRegistry registry,
                        Supplier<Set<UUID>> haltedAtStart, Consumer<Set<String>> closeConnections,
                        Predicate<String> servedHere) {
        this.store = store;
        this.batches = batches;
        this.applier = new FeedApplier(registry, closeConnections, LOG::warn,
                Runtime.getRuntime().availableProcessors(), servedHere);
        applier.documents().fetchMissingFrom(store::document); // one evicted from the follower's cache
        this.haltedAtStart = haltedAtStart;
    }

    void start() {
        thread.submit(() -> applier.halted(haltedAtStart.get().stream().map(UUID::toString)
                .collect(Collectors.toSet())));
        wake();
    }

    long applied() {
        return applied;
    }

    /** Applies what changed since the last applied version (on the follower's thread). */
    void wake() {
        thread.submit(this::catchUp);
    }

    void halt(UUID orgId, boolean on) {
        thread.submit(() -> applier.halt(orgId.toString(), on));
    }

    /** Where the sandbox with this id belongs, for audit entries. */
    EgressAudit.Owner owner(String sandboxId) {
        return applier.owner(sandboxId).map(o -> new EgressAudit.Owner(UUID.fromString(o.orgId()),
                UUID.fromString(o.projectId()))).orElse(null);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }

    /**
     * The shared lists a batch's sets name that the follower does not know, and the documents it lacks, each read in
     * one query rather than fetched one by one.
     */
    private void offerMissing(List<FeedBatches.Item> items) {
        Set<String> unknown = new HashSet<>();
        for (FeedBatches.Item item : items) {
            if (item.set() != null) {
                item.set().shared().stream().filter(n -> !lists.knows(n)).forEach(unknown::add);
            }
        }
        // the list as it is now: its later change in the feed is then no change (a set never goes back)
        store.sharedLists(unknown).values().forEach(this::follow);
        Set<DocumentHash> missing = new HashSet<>();
        for (FeedBatches.Item item : items) {
            List<DocumentHash> listed = new java.util.ArrayList<>();
            if (item.shared() != null) {
                listed.addAll(item.shared().documents());
            } else if (item.set() != null) {
                SandboxSet resolved = item.set().resolve(lists::documents, 0);
                listed.addAll(resolved.grants());
                listed.addAll(resolved.ceiling());
            }
            listed.stream().filter(h -> !applier.documents().has(h)).forEach(missing::add);
        }
        store.documents(missing).forEach((h, text) -> applier.documents().offer(h, text));
    }

    /** A shared list's documents: every set naming it is resolved again and in force in feed order. */
    private void follow(EnforcementStore.SharedList list) {
        for (SandboxSet set : lists.list(list.name(), 0, list.documents())) {
            applier.submit(set, s -> { });
        }
    }

    private void catchUp() {
        try {
            FeedBatches.Batch batch;
            do {
                batch = batches.after(applied); // the same read the feeds' sessions at this version share
                offerMissing(batch.items());
                for (FeedBatches.Item item : batch.items()) {
                    if (item.shared() != null) {
                        follow(item.shared());
                    } else if (item.set() == null) {
                        lists.remove(item.sandboxId().toString());
                        applier.remove(item.sandboxId().toString());
                    } else {
                        // compiles on every core, in force in version order
                        applier.submit(lists.set(item.set()), s -> { });
                    }
                    applied = item.version();
                }
            } while (batch.full());
        } catch (RuntimeException e) {
            LOG.error("applying sandbox enforcement changes failed; the last applied sets stay", e);
        } finally {
            applier.settle();
        }
    }
}
