package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.FeedApplier;
import dev.stockade.proxy.feed.SandboxSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
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
    private final FeedSets sets;
    private final FeedApplier applier;
    private final Supplier<Set<UUID>> haltedAtStart;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "egress-enforcement");
        t.setDaemon(true);
        return t;
    });
    private volatile long applied;

    EnforcementFollower(EnforcementStore store, FeedSets sets, SandboxRegistry registry,
                        Supplier<Set<UUID>> haltedAtStart, Consumer<Set<String>> closeConnections) {
        this.store = store;
        this.sets = sets;
        this.applier = new FeedApplier(registry, closeConnections, LOG::warn);
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

    /** The documents a batch lists that the follower lacks, read in one query rather than fetched one by one. */
    private void offerMissing(List<EnforcementStore.ListedChange> changes) {
        Set<DocumentHash> missing = new HashSet<>();
        for (EnforcementStore.ListedChange c : changes) {
            if (c.set() != null) {
                c.set().grants().stream().filter(h -> !applier.documents().has(h)).forEach(missing::add);
                c.set().ceiling().stream().filter(h -> !applier.documents().has(h)).forEach(missing::add);
            }
        }
        store.documents(missing).forEach((h, text) -> applier.documents().offer(h, text));
    }

    private void catchUp() {
        try {
            List<EnforcementStore.ListedChange> changes;
            do {
                changes = store.changesAfter(applied, FeedSets.BATCH);
                offerMissing(changes);
                for (EnforcementStore.ListedChange c : changes) {
                    SandboxSet set = sets.set(c);
                    if (set == null) {
                        applier.remove(c.sandboxId().toString());
                    } else {
                        applier.submit(set, s -> { }); // compiles on every core, in force in version order
                    }
                    applied = c.version();
                }
            } while (changes.size() == FeedSets.BATCH);
        } catch (RuntimeException e) {
            LOG.error("applying sandbox enforcement changes failed; the last applied sets stay", e);
        } finally {
            applier.settle();
        }
    }
}
