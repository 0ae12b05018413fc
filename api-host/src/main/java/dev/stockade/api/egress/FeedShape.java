package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.FeedWire;
import io.micronaut.http.sse.Event;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How one feed writes the changes of a batch, in the wire its replica asked for: {@link ByName} (wire 3, shared
 * lists by name) or {@link Resolved} (wires 1 and 2, every set with its documents, for replicas that predate shared
 * lists). One instance per feed, used by one pump at a time.
 */
abstract sealed class FeedShape permits FeedShape.ByName, Resolved {
    final EnforcementStore store;
    final SentDocuments sentDocuments = new SentDocuments();

    FeedShape(EnforcementStore store) {
        this.store = store;
    }

    /** Writes the batch's changes to {@code out}, in order. */
    abstract void write(List<FeedBatches.Item> items, Consumer<Event<String>> out);

    static FeedShape of(int wire, EnforcementStore store, FeedSets sets) {
        return wire == FeedWire.SHARED_LISTS ? new ByName(store) : new Resolved(store, sets, wire == FeedWire.BY_HASH);
    }

    /** Sends, ahead of what lists them, the documents of {@code hashes} this feed has not sent. */
    void sendDocuments(Collection<DocumentHash> hashes, Map<DocumentHash, String> texts, Consumer<Event<String>> out) {
        for (DocumentHash h : hashes) {
            String text = texts.get(h);
            if (text != null && sentDocuments.add(h)) {
                out.accept(Event.of(FeedWire.document(h, text).toString()).name(FeedWire.DOCUMENT));
            }
        }
    }

    /** The texts of those of {@code hashes} this feed has not sent (one query). */
    Map<DocumentHash, String> unsentTexts(Collection<DocumentHash> hashes) {
        Set<DocumentHash> wanted = new LinkedHashSet<>(hashes);
        wanted.removeIf(sentDocuments::has);
        return store.documents(wanted);
    }

    static Event<String> removed(FeedBatches.Item item) {
        return Event.of(FeedWire.removed(item.version(), item.sandboxId().toString()).toString())
                .name(FeedWire.REMOVED).id(Long.toString(item.version()));
    }

    /**
     * Wire 3: sets name shared lists, and a list's change is one {@code shared} event. A list a set names that this
     * feed has not sent goes ahead of the set as it is now (no version: it moves no reader's position).
     */
    static final class ByName extends FeedShape {
        private final Set<String> sentLists = new java.util.HashSet<>();

        ByName(EnforcementStore store) {
            super(store);
        }

        @Override
        void write(List<FeedBatches.Item> items, Consumer<Event<String>> out) {
            Set<String> unsent = new LinkedHashSet<>();
            Set<DocumentHash> hashes = new LinkedHashSet<>();
            for (FeedBatches.Item item : items) {
                if (item.shared() != null) {
                    hashes.addAll(item.shared().documents());
                } else if (item.set() != null) {
                    item.set().shared().stream().filter(n -> !sentLists.contains(n)).forEach(unsent::add);
                    hashes.addAll(item.set().documents());
                }
            }
            Map<String, EnforcementStore.SharedList> ahead = store.sharedLists(unsent);
            ahead.values().forEach(l -> hashes.addAll(l.documents()));
            Map<DocumentHash, String> texts = unsentTexts(hashes);
            for (FeedBatches.Item item : items) {
                if (item.shared() != null) {
                    sendList(item.shared(), item.version(), texts, out);
                } else if (item.set() == null) {
                    out.accept(removed(item));
                } else {
                    for (String name : item.set().shared()) {
                        EnforcementStore.SharedList list = ahead.get(name);
                        if (!sentLists.contains(name) && list != null) {
                            sendList(list, -1, texts, out);
                        }
                    }
                    sendDocuments(item.set().documents(), texts, out);
                    out.accept(Event.of(item.setEvent()).name(FeedWire.SET).id(Long.toString(item.version())));
                }
            }
        }

        private void sendList(EnforcementStore.SharedList list, long version, Map<DocumentHash, String> texts,
                              Consumer<Event<String>> out) {
            sendDocuments(list.documents(), texts, out);
            sentLists.add(list.name());
            Event<String> e = Event.of(FeedWire.shared(list.name(), list.orgId().toString(), version,
                    list.documents()).toString()).name(FeedWire.SHARED);
            out.accept(version >= 0 ? e.id(Long.toString(version)) : e);
        }
    }
}
