package dev.stockade.proxy.feed;

import dev.stockade.host.retry.Backoff;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.AuditSink;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A replica's audit lines into the platform's audit trail: queued (bounded) and posted in batches to
 * {@code POST /v1/egress/audit} with the proxy token, retried with backoff while the platform is unreachable. When
 * the queue is full the oldest lines go first and the count is logged; the replica's own sink ({@code --audit}) keeps
 * every line regardless.
 */
public final class PlatformAuditSink implements AuditSink {
    private static final int CAPACITY = 100_000;
    private static final int BATCH = 1_000;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private final URI endpoint;
    private final String token;
    private final Consumer<String> log;
    private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Thread sender;
    private volatile boolean closed;

    public PlatformAuditSink(URI platform, String token, Consumer<String> log) {
        this.endpoint = URI.create(platform.toString().replaceAll("/+$", "") + "/v1/egress/audit");
        this.token = token;
        this.log = log;
        this.sender = new Thread(this::run, "platform-audit");
        sender.setDaemon(true);
        sender.start();
    }

    @Override
    public void record(AuditEvent event) {
        String line = event.toJson();
        while (!queue.offer(line)) {
            if (queue.poll() != null && dropped.incrementAndGet() % 10_000 == 1) {
                log.accept("platform audit: the platform is behind; " + dropped.get() + " line(s) dropped (they"
                        + " stay in --audit)");
            }
        }
    }

    /** Lines not yet accepted by the platform. */
    public int pending() {
        return queue.size();
    }

    @Override
    public void close() {
        closed = true;
        sender.interrupt();
    }

    private void run() {
        List<String> batch = new ArrayList<>();
        Backoff backoff = new Backoff(Duration.ofMillis(250), MAX_BACKOFF);
        while (!closed) {
            try {
                if (batch.isEmpty()) {
                    String first = queue.poll(1, TimeUnit.SECONDS);
                    if (first == null) {
                        continue;
                    }
                    batch.add(first);
                    queue.drainTo(batch, BATCH - 1);
                }
                if (send(batch)) {
                    batch.clear();
                    backoff.reset();
                } else {
                    backoff.pause(); // the platform refused or is down: retry the same batch
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private boolean send(List<String> batch) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/x-ndjson")
                    .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", batch) + "\n")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 == 2) {
                return true;
            }
            log.accept("platform audit: the platform answered " + r.statusCode() + "; retrying");
            return false;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
