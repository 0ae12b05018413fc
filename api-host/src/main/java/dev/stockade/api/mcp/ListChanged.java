package dev.stockade.api.mcp;

import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.GrantedToolSource;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.sse.Event;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Sinks;

/**
 * The server-to-client streams of MCP sessions ({@code GET} on an endpoint) and the
 * {@code notifications/tools/list_changed} they carry. Every replica follows the events that can change what a caller
 * sees (through PostgreSQL: a change made on another replica arrives here too); on each, it rebuilds the list of
 * every open stream on this replica and notifies those whose list differs from the one they last saw. Idle streams
 * get an SSE comment every 15 s so proxies keep them open.
 */
@Singleton
public class ListChanged {
    static final String NOTIFICATION = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

    private final class Stream {
        final Identity caller;
        @Nullable
        final UUID projectId;
        final Sinks.Many<Event<String>> sink = Sinks.many().unicast().onBackpressureBuffer();
        volatile List<String> seen;

        Stream(Identity caller, @Nullable UUID projectId) {
            this.caller = caller;
            this.projectId = projectId;
            this.seen = names();
        }

        List<String> names() {
            return catalog.list(caller, projectId).stream().map(ToolCatalog.Entry::name).toList();
        }

        void recheck() {
            List<String> now = names();
            if (!now.equals(seen)) {
                seen = now;
                sink.tryEmitNext(Event.of(NOTIFICATION));
            }
        }
    }

    private final ToolCatalog catalog;
    private final GrantedToolSource granted;
    private final Set<Stream> streams = ConcurrentHashMap.newKeySet();
    private final ExecutorService work = Executors.newSingleThreadExecutor(r -> daemon(r, "mcp-list-changed"));
    private final ScheduledExecutorService pings = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "mcp-ping"));

    public ListChanged(ToolCatalog catalog, GrantedToolSource granted, EventStream events) {
        this.catalog = catalog;
        this.granted = granted;
        for (Topic topic : granted.topics()) {
            events.subscribe(topic, e -> work.submit(this::recheckAll));
        }
        pings.scheduleWithFixedDelay(() -> streams.forEach(s -> s.sink.tryEmitNext(Event.<String>of("")
                .comment("ping"))), 15, 15, TimeUnit.SECONDS);
    }

    /** Opens the notification stream of a session; it ends when the client goes away. */
    public Publisher<Event<String>> open(Identity caller, @Nullable UUID projectId) {
        Stream s = new Stream(caller, projectId);
        streams.add(s);
        return s.sink.asFlux().doFinally(signal -> streams.remove(s));
    }

    /** Rebuilds every open stream's list (after the grants cache is cleared) and notifies where it changed. */
    private void recheckAll() {
        granted.invalidate();
        for (Stream s : streams) {
            try {
                s.recheck();
            } catch (RuntimeException e) {
                s.sink.tryEmitComplete(); // a caller whose list cannot be built (revoked, deleted) loses the stream
                streams.remove(s);
            }
        }
    }

    /** How many streams are open on this replica. */
    public int open() {
        return streams.size();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @PreDestroy
    void close() {
        streams.forEach(s -> s.sink.tryEmitComplete());
        work.shutdownNow();
        pings.shutdownNow();
    }
}
