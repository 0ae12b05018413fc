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
    /** Documents a feed remembers having sent: about ten per sandbox of a proxy with ten thousand. */
    private static final int SENT_DOCUMENTS = 100_000;

    private final EnforcementStore store;
    private final FeedBatches batches;
    private final HaltService halts;
    private final Set<Session> sessions = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService pool;

    public FeedHub(EnforcementStore store, FeedBatches batches, HaltService halts, EventStream events,
                   @Value("${sandbox.egress.feed-ping:10s}") Duration ping) {
        this.store = store;
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
     * A feed from {@code after}: the server-sent events a proxy replica reads, documents by hash when {@code wire} is
     * {@link FeedWire#BY_HASH}, whole in each set otherwise (replicas that predate it).
     */
    public Flux<Event<String>> open(long after, int wire, UUID tokenId, String proxyName) {
        return Flux.create(sink -> {
            Session s = new Session(sink, after, wire == FeedWire.BY_HASH, tokenId, proxyName);
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

    private static List<DocumentHash> concat(List<DocumentHash> a, List<DocumentHash> b) {
        List<DocumentHash> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
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
        private final boolean byHash;
        /** The documents this feed has sent (bounded: one forgotten is sent again, or the replica fetches it). */
        private final Map<DocumentHash, Boolean> sentDocuments = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<DocumentHash, Boolean> eldest) {
                return size() > SENT_DOCUMENTS;
            }
        };
        private volatile boolean haltDirty;
        private volatile long sent;
        private boolean ready;

        Session(FluxSink<Event<String>> sink, long after, boolean byHash, UUID tokenId, String proxyName) {
            this.sink = sink;
            this.byHash = byHash;
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
                Map<DocumentHash, String> texts = store.documents(unsent(batch.items()));
                for (FeedBatches.Item item : batch.items()) {
                    if (item.set() == null) {
                        sink.next(Event.of(FeedWire.removed(item.version(), item.sandboxId().toString()).toString())
                                .name(FeedWire.REMOVED).id(Long.toString(item.version())));
                    } else {
                        send(item, texts);
                    }
                    sent = item.version();
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

        /** The documents a batch lists that this feed has not sent (wire 1: every one, each set carries them). */
        private Set<DocumentHash> unsent(List<FeedBatches.Item> items) {
            Set<DocumentHash> out = new LinkedHashSet<>();
            for (FeedBatches.Item item : items) {
                if (item.set() != null) {
                    out.addAll(item.set().grants());
                    out.addAll(item.set().ceiling());
                }
            }
            if (byHash) {
                out.removeIf(sentDocuments::containsKey);
            }
            return out;
        }

        /** A set, after the documents it lists that were not sent yet (wire 2), or with them whole (wire 1). */
        private void send(FeedBatches.Item item, Map<DocumentHash, String> texts) {
            SandboxSet set = item.set();
            String id = Long.toString(set.version());
            if (!byHash) {
                sink.next(Event.of(FeedWire.sandbox(set, texts::get).toString()).name(FeedWire.SANDBOX).id(id));
                return;
            }
            for (DocumentHash h : concat(set.grants(), set.ceiling())) {
                String text = texts.get(h);
                if (text != null && sentDocuments.put(h, Boolean.TRUE) == null) {
                    sink.next(Event.of(FeedWire.document(h, text).toString()).name(FeedWire.DOCUMENT));
                }
            }
            sink.next(Event.of(item.setEvent()).name(FeedWire.SET).id(id));
        }
    }
}
