package dev.stockade.api.halt;

import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import io.micronaut.context.annotation.Context;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Response streams still open on this replica (the cluster proxy's, model calls'), by organization: a halt (the
 * {@code halt} event, delivered to every replica) closes them, which ends each response mid-stream, so a watch, a log
 * follow or a model's answer stops with the halt and not at its own end.
 */
@Context
public class OpenStreams {
    private final Map<UUID, Set<Closeable>> open = new ConcurrentHashMap<>();

    public OpenStreams(EventStream events) {
        events.subscribe(Topic.HALT, e -> {
            if (e.payload().path("halted").asBoolean(false)) {
                closeAll(e.orgId());
            }
        });
    }

    /** Wraps {@code body} so that it is closed by a halt of {@code orgId}, and forgotten once closed. */
    public InputStream track(UUID orgId, InputStream body) {
        Set<Closeable> set = open.computeIfAbsent(orgId, k -> ConcurrentHashMap.newKeySet());
        InputStream tracked = new FilterInputStream(body) {
            @Override
            public void close() throws IOException {
                set.remove(this);
                super.close();
            }
        };
        set.add(tracked);
        return tracked;
    }

    /** Closes {@code session} (a realtime voice session) on a halt of {@code orgId}, until it is forgotten. */
    public void track(UUID orgId, Closeable session) {
        open.computeIfAbsent(orgId, k -> ConcurrentHashMap.newKeySet()).add(session);
    }

    /** Stops tracking {@code session}: it ended. */
    public void forget(UUID orgId, Closeable session) {
        open.getOrDefault(orgId, Set.of()).remove(session);
    }

    /** How many streams of {@code orgId} are open (for tests and diagnostics). */
    public int count(UUID orgId) {
        return open.getOrDefault(orgId, Set.of()).size();
    }

    public void closeAll(UUID orgId) {
        for (Closeable in : Set.copyOf(open.getOrDefault(orgId, Set.of()))) {
            try {
                in.close();
            } catch (IOException e) {
                // already broken: nothing more to stop
            }
        }
    }
}
