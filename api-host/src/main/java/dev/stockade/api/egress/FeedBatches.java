package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.proxy.feed.FeedWire;
import dev.stockade.proxy.feed.SandboxParts;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The changes of {@code sandbox_enforcement} after a version, read once for every reader of this replica at that
 * version: each proxy replica's feed session and the platform's own proxy. A change that reaches a thousand sandboxes
 * is read from the database, its credentials revealed and its sets serialised once, not once per follower.
 *
 * <p>A batch of {@link FeedSets#BATCH} rows is what a read at that version returned at some moment; a reader given it
 * proceeds exactly as if it had read then (its next read starts after the batch's last version). A shorter batch, the
 * tail, may grow with every commit: it serves only the readers that ask before the next {@code enforcement} event,
 * which is delivered after that commit and wakes them ({@link #onChange}) to read again. A few recent positions are
 * kept; a reader far behind reads its own.
 */
@Singleton
public class FeedBatches {
    /** Positions kept: readers at the head share them; catching up from far behind reads afresh. */
    static final int KEPT = 32;

    /**
     * One change: a sandbox's set, its removal ({@code set} and {@code shared} null), or a shared list's documents
     * ({@code shared} set, no sandbox).
     */
    public static final class Item {
        private final long version;
        private final UUID sandboxId;
        private final SandboxParts set;
        private final EnforcementStore.SharedList shared;
        private volatile String setEvent;

        Item(long version, UUID sandboxId, SandboxParts set, EnforcementStore.SharedList shared) {
            this.version = version;
            this.sandboxId = sandboxId;
            this.set = set;
            this.shared = shared;
        }

        /** A shared list's change, or null. */
        public EnforcementStore.SharedList shared() {
            return shared;
        }

        public long version() {
            return version;
        }

        public UUID sandboxId() {
            return sandboxId;
        }

        public SandboxParts set() {
            return set;
        }

        /** The set as wire 3 sends it (parts by hash and name): written at the first feed's need, once for all. */
        public String setEvent() {
            String text = setEvent;
            if (text == null) {
                text = FeedWire.parts(set).toString(); // two sessions at once may both write it: same text
                setEvent = text;
            }
            return text;
        }
    }

    /** What a read after a version returned, oldest first; {@code full}: as many as a read takes. */
    public record Batch(List<Item> items, boolean full) {
    }

    private record Slot(long generation, CompletableFuture<Batch> batch) {
    }

    private final EnforcementStore store;
    private final FeedSets sets;
    private final ConcurrentSkipListMap<Long, Slot> slots = new ConcurrentSkipListMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    public FeedBatches(EnforcementStore store, FeedSets sets, EventStream events) {
        this.store = store;
        this.sets = sets;
        events.subscribe(Topic.ENFORCEMENT, e -> {
            generation.incrementAndGet(); // before anyone is woken: tails read until now are stale
            listeners.forEach(Runnable::run);
        });
    }

    /** Runs {@code wake} after every {@code enforcement} event, once the tails read before it are stale. */
    public void onChange(Runnable wake) {
        listeners.add(wake);
    }

    /** The changes after {@code version}: shared with every reader at the same version, read when none is. */
    public Batch after(long version) {
        long current = generation.get(); // read before the rows: a commit announced later makes this slot stale
        while (true) {
            Slot slot = slots.get(version);
            if (slot != null && usable(slot, current)) {
                Batch b = slot.batch().exceptionally(e -> null).join();
                if (b != null) {
                    return b;
                }
                slots.remove(version, slot); // that read failed: read again
                continue;
            }
            Slot mine = new Slot(current, new CompletableFuture<>());
            boolean won = slot == null ? slots.putIfAbsent(version, mine) == null : slots.replace(version, slot, mine);
            if (won) {
                trim();
                return read(version, mine);
            }
        }
    }

    private static boolean usable(Slot slot, long generation) {
        if (slot.generation() == generation) {
            return true;
        }
        CompletableFuture<Batch> b = slot.batch();
        return b.isDone() && !b.isCompletedExceptionally() && b.join().full();
    }

    private Batch read(long version, Slot into) {
        try {
            List<EnforcementStore.ListedChange> changes = store.changesAfter(version, FeedSets.BATCH);
            List<Item> items = new ArrayList<>(changes.size());
            for (EnforcementStore.ListedChange c : changes) {
                items.add(c.shared() != null ? new Item(c.version(), null, null, c.shared())
                        : new Item(c.version(), c.sandboxId(), sets.set(c), null));
            }
            Batch batch = new Batch(List.copyOf(items), changes.size() >= FeedSets.BATCH);
            into.batch().complete(batch);
            return batch;
        } catch (RuntimeException | Error e) {
            into.batch().completeExceptionally(e);
            slots.remove(version, into);
            throw e;
        }
    }

    private void trim() {
        while (slots.size() > KEPT) {
            slots.pollFirstEntry();
        }
    }
}
