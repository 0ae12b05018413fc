package dev.stockade.proxy.feed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.host.retry.Backoff;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Feeds a proxy replica from the platform: reads the platform's proxy feed ({@link FeedWire}, wire 3: each document
 * once, sets by document hash and shared list, a shared list's change once for every set naming it, resolved here by
 * {@link SharedLists}; wire 2 from a platform that predates wire 3) as a stream and applies every change through a {@link FeedApplier} as it arrives; a
 * document the applier lacks is fetched from the same platform by hash. After a disconnect it reconnects with backoff and resumes
 * after the last version it applied; while the platform is unreachable it keeps enforcing its last good sets and says
 * so in the log and in {@link #status()}. A stream silent for longer than the idle bound (the platform pings every
 * few seconds) counts as lost.
 */
public final class ControlPlaneSource implements AutoCloseable {

    /** What the source knows of its connection, for health checks and logs. */
    public record Status(boolean connected, boolean synced, long version, int sandboxes, Instant since,
                         String lastError) {
    }

    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private final URI feed;
    private final String token;
    private final FeedApplier applier;
    private final Consumer<String> log;
    private final Consumer<SandboxSet> onApplied;
    private final Duration idleBound;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "control-plane-watchdog");
        t.setDaemon(true);
        return t;
    });
    private final CountDownLatch firstSync = new CountDownLatch(1);
    private final Thread reader;
    private volatile Status status = new Status(false, false, 0, 0, Instant.now(), "not connected yet");
    private volatile long lastByte = System.nanoTime();
    private volatile InputStream open;
    private volatile boolean closed;
    private final SharedLists shared = new SharedLists();
    private int wire = FeedWire.SHARED_LISTS;
    private long version;

    /**
     * @param platform  the platform's base URL ({@code https://stockade.example.com})
     * @param token     the proxy token ({@code stk_pxy_...}); never logged
     * @param applier   where changes go
     * @param log       where connection news goes (one line each; never a secret)
     * @param onApplied called after each sandbox set is in force, on the thread that installed it (benchmarks, tests)
     * @param idleBound how long a silent stream is trusted
     */
    public ControlPlaneSource(URI platform, String token, FeedApplier applier, Consumer<String> log,
                              Consumer<SandboxSet> onApplied, Duration idleBound) {
        String base = platform.toString().replaceAll("/+$", "");
        this.feed = URI.create(base + "/v1/egress/feed");
        this.token = token;
        this.applier = applier;
        this.log = log;
        this.onApplied = onApplied;
        this.idleBound = idleBound;
        this.reader = new Thread(this::run, "control-plane-feed");
        reader.setDaemon(true);
        // the platform that feeds the applier is where it fetches a document it lacks
        applier.documents().fetchMissingFrom(new PlatformDocuments(http, base, token));
    }

    public ControlPlaneSource(URI platform, String token, FeedApplier applier, Consumer<String> log) {
        this(platform, token, applier, log, s -> { }, Duration.ofSeconds(45));
    }

    /** Starts reading; changes apply on the source's own thread. */
    public ControlPlaneSource start() {
        reader.start();
        long checkMillis = Math.max(100, idleBound.toMillis() / 3);
        watchdog.scheduleWithFixedDelay(this::cutIfSilent, checkMillis, checkMillis, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Waits until the first connection has delivered every change that existed when it opened. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        return firstSync.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public Status status() {
        return status;
    }

    @Override
    public void close() {
        closed = true;
        watchdog.shutdownNow();
        closeOpen();
        reader.interrupt();
    }

    private void run() {
        Backoff backoff = new Backoff(FIRST_BACKOFF, MAX_BACKOFF);
        while (!closed) {
            try {
                if (stream()) {
                    backoff.reset(); // a stream that delivered starts the backoff over
                }
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
                lost(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), backoff.next());
            } catch (InterruptedException e) {
                return;
            }
            try {
                backoff.pause(); // the platform is down or restarting
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One connection, read until it ends; whether it delivered anything. */
    private boolean stream() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(feed + "?after=" + version + "&wire=" + wire))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").GET().build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() == 400 && wire == FeedWire.SHARED_LISTS) {
            response.body().close();
            wire = FeedWire.BY_HASH; // a platform that predates shared lists refuses wire 3: every set comes whole
            throw new IOException("the platform does not offer feed wire 3; reading wire 2");
        }
        if (response.statusCode() != 200) {
            response.body().close();
            throw new IOException("the platform answered " + response.statusCode()
                    + (response.statusCode() == 401 || response.statusCode() == 403
                    ? " (is the proxy token valid and not revoked?)" : ""));
        }
        open = response.body();
        lastByte = System.nanoTime();
        boolean delivered = false;
        try (SseReader in = new SseReader(open, () -> lastByte = System.nanoTime())) {
            for (SseEvent e = in.next(); e != null && !closed; e = in.next()) {
                dispatch(e.name(), e.data());
                delivered = true;
            }
        } finally {
            open = null;
        }
        if (!closed) {
            lost("the platform closed the feed", Duration.ZERO);
        }
        return delivered;
    }

    private void dispatch(String event, String data) {
        JsonNode n;
        try {
            n = FeedWire.parse(data);
        } catch (IllegalArgumentException e) {
            log.accept("control plane: a `" + event + "` event is not JSON; ignored");
            return;
        }
        switch (event) {
            case FeedWire.DOCUMENT -> offer(n);
            case FeedWire.SET -> applySet(n, wire == FeedWire.SHARED_LISTS
                    ? parts -> shared.set(FeedWire.readParts(parts)) : FeedWire::readSet);
            case FeedWire.SANDBOX -> applySet(n, whole -> FeedWire.readSandbox(whole, applier.documents()));
            case FeedWire.SHARED -> applyShared(n);
            case FeedWire.REMOVED -> {
                shared.remove(n.path("sandboxId").asText());
                applier.remove(n.path("sandboxId").asText());
                version = Math.max(version, n.path("version").asLong());
            }
            case FeedWire.HALTED -> applier.halted(FeedWire.readHalted(n));
            case FeedWire.READY -> {
                applier.settle(); // "in sync" means every set sent so far is in force
                version = Math.max(version, n.path("version").asLong());
                if (firstSync.getCount() > 0) {
                    log.accept("control plane: in sync at version " + version + ", " + applier.size()
                            + " sandbox(es)");
                }
                firstSync.countDown();
                status = new Status(true, true, version, applier.size(), Instant.now(), null);
                return;
            }
            default -> {
                return; // an event a newer platform sends: not ours to read
            }
        }
        status = new Status(true, status.synced(), version, applier.size(), status.since(), null);
    }

    /** A document that does not read or match its hash is not kept: a set listing it fetches it, or denies. */
    private void offer(JsonNode n) {
        try {
            FeedWire.Document d = FeedWire.readDocument(n);
            applier.documents().offer(d.hash(), d.text());
        } catch (IllegalArgumentException e) {
            log.accept("control plane: a document event does not read (" + e.getMessage() + "); ignored");
        }
    }

    /**
     * A shared list's documents: every set naming it is resolved again and submitted, in force in feed order. One
     * that does not read changes nothing (the sets keep the documents they had).
     */
    private void applyShared(JsonNode n) {
        FeedWire.Shared list;
        try {
            list = FeedWire.readShared(n);
        } catch (IllegalArgumentException e) {
            log.accept("control plane: a shared list event does not read (" + e.getMessage() + "); ignored");
            return;
        }
        for (SandboxSet set : shared.list(list.name(), Math.max(0, list.version()), list.documents())) {
            applier.submit(set, onApplied);
        }
        version = Math.max(version, list.version());
    }

    /** A set that does not read takes the sandbox's old set away: it is refused until a good set arrives. */
    private void applySet(JsonNode n, Function<JsonNode, SandboxSet> reading) {
        long v = n.path("version").asLong();
        String id = n.path("sandboxId").asText("");
        try {
            if (wire != FeedWire.SHARED_LISTS) {
                shared.remove(id); // a set sent whole follows no list
            }
            // compiles on the applier's pool; sets still come into force in feed order
            applier.submit(reading.apply(n), onApplied);
        } catch (IllegalArgumentException e) {
            if (!id.isEmpty()) {
                shared.remove(id);
                applier.remove(id);
            }
            log.accept("control plane: the set of sandbox " + (id.isEmpty() ? "?" : id) + " at version " + v
                    + " does not read (" + e.getMessage() + "); it is refused until a good set arrives");
        }
        version = Math.max(version, v);
    }

    private void lost(String why, Duration retry) {
        Status was = status;
        // the line goes out before the status says so: whoever sees "disconnected" finds the line logged
        if (was.connected() || was.lastError() == null || !was.lastError().equals(why)) {
            log.accept("control plane unreachable (" + why + "); keeping the last good set of " + applier.size()
                    + " sandbox(es) at version " + version + "; retrying" + (retry.isZero() ? "" : " in "
                    + retry.toMillis() + " ms"));
        }
        status = new Status(false, was.synced(), version, applier.size(), was.connected() ? Instant.now()
                : was.since(), why);
    }

    private void cutIfSilent() {
        if (open != null && System.nanoTime() - lastByte > idleBound.toNanos()) {
            log.accept("control plane: the feed was silent for " + idleBound.toSeconds() + " s; reconnecting");
            closeOpen();
        }
    }

    private void closeOpen() {
        InputStream in = open;
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // closing to reconnect anyway
            }
        }
    }
}
