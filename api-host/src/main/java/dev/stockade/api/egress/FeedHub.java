package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.halt.HaltService;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.FeedWire;
import dev.stockade.proxy.feed.SandboxSet;
import io.micronaut.context.annotation.Value;
import io.micronaut.http.sse.Event;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * The proxy feed's server side: each open feed (one per proxy replica) is a session that sends the changes of
 * {@code sandbox_enforcement} after the version the proxy asked for, then every later change as the
 * {@code enforcement} event of its commit wakes it (on any replica: events go through PostgreSQL), each batch read
 * once for every session at the same version ({@link FeedBatches}), and the set of
 * halted organizations whenever a {@code halt} event arrives. Reads follow the client's demand (a batch at a time),
 * so a slow proxy holds back its own session and nothing else; idle feeds get a ping every few seconds.
 */
@Singleton
public class FeedHub {
    private static final Logger LOG = LoggerFactory.getLogger(FeedHub.class);
    private final EnforcementStore store;
    private final FeedBatches batches;
    private final FeedSets sets;
    private final HaltService halts;
    private final Set<Session> sessions = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService pool;

    public FeedHub(EnforcementStore store, FeedBatches batches, FeedSets sets, HaltService halts, EventStream events,
                   @Value("${sandbox.egress.feed-ping:10s}") Duration ping) {
        this.store = store;
        this.sets = sets;
        this.batches = batches;
        this.halts = halts;
        this.pool = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "egress-feed");
            t.setDaemon(true);
            return t;
        });
        batches.onChange(() -> sessions.forEach(Session::wake));
        events.subscribe(Topic.HALT, e -> sessions.forEach(Session::haltChanged));
        events.subscribe(Topic.PROXY_TOKEN, e -> sessions.stream()
                .filter(s -> s.tokenId.toString().equals(e.payload().path("revoked").asText()))
                .forEach(s -> s.sink.complete()));
        pool.scheduleWithFixedDelay(() -> sessions.forEach(Session::ping), ping.toMillis(), ping.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * A feed from {@code after}: the server-sent events a proxy replica reads, in the shape {@code wire} names: shared
     * lists by name ({@link FeedWire#SHARED_LISTS}), documents by hash ({@link FeedWire#BY_HASH}), or each set's
     * documents whole (1, replicas that predate both).
     */
    public Flux<Event<String>> open(long after, int wire, UUID tokenId, String proxyName) {
        return Flux.create(sink -> {
            Session s = new Session(sink, after, FeedShape.of(wire, store, sets), tokenId, proxyName);
            sessions.add(s);
            sink.onDispose(() -> {
                sessions.remove(s);
                LOG.info("proxy feed of `{}` closed at version {}", proxyName, s.sent);
            });
            sink.onRequest(n -> s.wake());
            LOG.info("proxy feed of `{}` opened after version {}", proxyName, after);
            s.haltChanged();
        }, FluxSink.OverflowStrategy.BUFFER);
    }

    @PreDestroy
    void close() {
        pool.shutdownNow();
        sessions.forEach(s -> s.sink.complete());
    }

    /** One proxy's feed; its work runs on the pool, one pump at a time. */
    private final class Session {
        private final FluxSink<Event<String>> sink;
        private final String proxyName;
        private final UUID tokenId;
        private final AtomicBoolean running = new AtomicBoolean();
        private final AtomicBoolean again = new AtomicBoolean();
        private final FeedShape shape;
        private volatile boolean haltDirty;
        private volatile long sent;
        private boolean ready;

        Session(FluxSink<Event<String>> sink, long after, FeedShape shape, UUID tokenId, String proxyName) {
            this.sink = sink;
            this.shape = shape;
            this.tokenId = tokenId;
            this.sent = after;
            this.proxyName = proxyName;
        }

        void haltChanged() {
            haltDirty = true;
            wake();
        }

        void ping() {
            sink.next(Event.of("").comment("ping"));
        }

        void wake() {
            again.set(true);
            if (running.compareAndSet(false, true)) {
                pool.execute(this::pump);
            }
        }

        private void pump() {
            try {
                while (again.getAndSet(false) && !sink.isCancelled()) {
                    if (haltDirty) {
                        haltDirty = false;
                        Set<String> orgs = halts.haltedOrgs().stream().map(UUID::toString).collect(Collectors.toSet());
                        sink.next(Event.of(FeedWire.halted(orgs).toString()).name(FeedWire.HALTED));
                    }
                    sendChanges();
                }
            } catch (RuntimeException e) {
                LOG.error("proxy feed of `{}` failed; the proxy reconnects and resumes", proxyName, e);
                sink.error(e);
            } finally {
                running.set(false);
                if (again.get() && !sink.isCancelled()) {
                    wake();
                }
            }
        }

        /** Sends batches while the proxy asks for more; the first catch-up ends with {@code ready}. */
        private void sendChanges() {
            while (sink.requestedFromDownstream() > 0 && !sink.isCancelled()) {
                FeedBatches.Batch batch = batches.after(sent);
                shape.write(batch.items(), sink::next);
                if (!batch.items().isEmpty()) {
                    sent = batch.items().get(batch.items().size() - 1).version();
                }
                if (!batch.full()) {
                    if (!ready) {
                        ready = true;
                        sink.next(Event.of(FeedWire.ready(sent).toString()).name(FeedWire.READY));
                    }
                    return;
                }
            }
            again.set(true); // demand ran out mid-way: onRequest wakes the session again
        }
    }
}
