package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.FeedWire;
import dev.stockade.proxy.feed.SandboxParts;
import dev.stockade.proxy.feed.SandboxSet;
import io.micronaut.http.sse.Event;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Wires 1 and 2, for replicas that predate shared lists: every set is sent with its shared lists replaced by their
 * documents (whole on wire 1, by hash on wire 2). A list's change is sent as every live set naming it, read again and
 * resolved, each with its own version: a replica cut off half-way has not moved past the list's version and is sent
 * them all again.
 */
final class Resolved extends FeedShape {
    private final FeedSets sets;
    private final boolean byHash;
    /** The lists as this feed resolves them: read when a set first names one, replaced by each change. */
    private final Map<String, List<DocumentHash>> lists = new HashMap<>();

    Resolved(EnforcementStore store, FeedSets sets, boolean byHash) {
        super(store);
        this.sets = sets;
        this.byHash = byHash;
    }

    @Override
    void write(List<FeedBatches.Item> items, Consumer<Event<String>> out) {
        List<FeedBatches.Item> run = new ArrayList<>();
        for (FeedBatches.Item item : items) {
            if (item.shared() == null) {
                run.add(item);
                continue;
            }
            sendSets(run, out); // the sets before the list's change, as they were read
            run.clear();
            EnforcementStore.SharedList list = item.shared();
            lists.put(list.name(), list.documents());
            List<FeedBatches.Item> naming = new ArrayList<>();
            for (EnforcementStore.ListedChange c : store.setsNaming(list.orgId(), list.name())) {
                SandboxParts parts = sets.set(c);
                if (parts != null) {
                    naming.add(new FeedBatches.Item(c.version(), c.sandboxId(), parts, null));
                }
            }
            sendSets(naming, out);
        }
        sendSets(run, out);
    }

    private void sendSets(List<FeedBatches.Item> items, Consumer<Event<String>> out) {
        Set<String> unknown = new LinkedHashSet<>();
        for (FeedBatches.Item item : items) {
            if (item.set() != null) {
                item.set().shared().stream().filter(n -> !lists.containsKey(n)).forEach(unknown::add);
            }
        }
        store.sharedLists(unknown).forEach((name, list) -> lists.put(name, list.documents()));
        List<SandboxSet> resolved = new ArrayList<>(items.size());
        Set<DocumentHash> hashes = new LinkedHashSet<>();
        for (FeedBatches.Item item : items) {
            SandboxSet set = item.set() == null ? null : item.set().resolve(lists::get, item.version());
            resolved.add(set);
            if (set != null) {
                hashes.addAll(set.grants());
                hashes.addAll(set.ceiling());
            }
        }
        Map<DocumentHash, String> texts = byHash ? unsentTexts(hashes) : store.documents(hashes);
        for (int i = 0; i < items.size(); i++) {
            SandboxSet set = resolved.get(i);
            if (set == null) {
                out.accept(removed(items.get(i)));
                continue;
            }
            String id = Long.toString(set.version());
            if (!byHash) {
                out.accept(Event.of(FeedWire.sandbox(set, texts::get).toString()).name(FeedWire.SANDBOX).id(id));
                continue;
            }
            List<DocumentHash> listed = new ArrayList<>(set.grants());
            listed.addAll(set.ceiling());
            sendDocuments(listed, texts, out);
            out.accept(Event.of(FeedWire.set(set).toString()).name(FeedWire.SET).id(id));
        }
    }
}
