package dev.stockade.proxy.feed;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A follower's shared lists and the sets that name them: turns each {@link SandboxParts} into the {@link SandboxSet}
 * it enforces, and a list's change into every set naming it resolved again, without the platform sending those sets.
 * A set naming a list the follower was never sent denies everything until the list arrives (fail closed). Used from
 * one thread (the feed's reader or the platform's follower).
 */
public final class SharedLists {
    private final Map<String, List<DocumentHash>> lists = new HashMap<>();
    private final Map<String, Long> versions = new HashMap<>();
    private final Map<String, SandboxParts> naming = new HashMap<>(); // only sets that name a list
    private final Map<String, Set<String>> users = new HashMap<>(); // list name -> sandbox ids

    /** Whether the list's documents are known. */
    public boolean knows(String name) {
        return lists.containsKey(name);
    }

    /** The list's documents, or null when it is not known. */
    public List<DocumentHash> documents(String name) {
        return lists.get(name);
    }

    /** A set arrived: it is remembered (when it names a list) and returned resolved. */
    public SandboxSet set(SandboxParts parts) {
        forget(parts.sandboxId());
        Set<String> names = parts.shared();
        long version = parts.version();
        for (String name : names) {
            naming.put(parts.sandboxId(), parts);
            users.computeIfAbsent(name, n -> new HashSet<>()).add(parts.sandboxId());
            version = Math.max(version, versions.getOrDefault(name, 0L));
        }
        return parts.resolve(lists::get, version);
    }

    /**
     * A list's documents at {@code version}: returns the sets naming it resolved again, in no particular order, or
     * nothing when its documents did not change.
     */
    public List<SandboxSet> list(String name, long version, List<DocumentHash> documents) {
        List<DocumentHash> docs = List.copyOf(documents);
        versions.merge(name, version, Math::max);
        List<DocumentHash> was = lists.put(name, docs);
        if (docs.equals(was)) {
            return List.of();
        }
        Set<String> ids = users.getOrDefault(name, Set.of());
        List<SandboxSet> out = new ArrayList<>(ids.size());
        for (String id : ids) {
            SandboxParts parts = naming.get(id);
            out.add(parts.resolve(lists::get, Math.max(parts.version(), versions.getOrDefault(name, version))));
        }
        return out;
    }

    /** A sandbox is gone: its set no longer follows any list. */
    public void remove(String sandboxId) {
        forget(sandboxId);
    }

    private void forget(String sandboxId) {
        SandboxParts old = naming.remove(sandboxId);
        if (old == null) {
            return;
        }
        for (String name : old.shared()) {
            Set<String> ids = users.get(name);
            if (ids != null) {
                ids.remove(sandboxId);
                if (ids.isEmpty()) {
                    users.remove(name);
                }
            }
        }
    }
}
