package dev.stockade.api.clusters;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Introspected;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The platform's side of the relay tunnel, on this replica: a cluster's relay (inside the customer's cluster, which
 * the platform cannot dial) long-polls for the next request with its tunnel token and posts each answer back. A
 * proxy request for a relay-mode cluster is queued here and waits for its answer. A relay counts as connected while
 * it polls (a poll at least every {@code clusters.relay-poll-wait} plus a grace); rotating the tunnel token or
 * deleting the cluster drops it at once and fails what was waiting.
 */
@Singleton
public class RelayHub {
    /** One request for the relay to carry out; {@code token} is the request JWT it must verify first. */
    @Introspected
    public record Envelope(String id, String method, String path, Map<String, List<String>> headers, String body,
                           String token) {
    }

    /** The relay's answer: status, response headers and the body (base64). */
    @Introspected
    public record Answer(int status, Map<String, List<String>> headers, String body) {
    }

    private record Pending(Envelope envelope, CompletableFuture<Answer> answer) {
    }

    private static final Pending DROPPED = new Pending(null, null);

    private static final class Channel {
        final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>(256);
        final Map<String, CompletableFuture<Answer>> inFlight = new ConcurrentHashMap<>();
        volatile long lastPollNanos = System.nanoTime();
        volatile boolean dropped;
    }

    private final Map<UUID, Channel> channels = new ConcurrentHashMap<>();
    private final Duration pollWait;

    public RelayHub(@Value("${clusters.relay-poll-wait:25s}") Duration pollWait) {
        this.pollWait = pollWait;
    }

    /** Whether a relay of {@code clusterId} polled lately. */
    public boolean connected(UUID clusterId) {
        Channel c = channels.get(clusterId);
        return c != null && !c.dropped
                && System.nanoTime() - c.lastPollNanos < pollWait.plusSeconds(15).toNanos();
    }

    /** Queues {@code envelope} for the relay and waits up to {@code timeout} for its answer. */
    Answer exchange(UUID clusterId, Envelope envelope, Duration timeout) {
        CompletableFuture<Answer> answer = send(clusterId, envelope);
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            forget(clusterId, envelope.id());
            throw unreachable("its relay did not answer within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw unreachable("its relay was disconnected");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable("the request was interrupted");
        }
    }

    /**
     * Queues {@code envelope} for the relay without waiting: its answer completes the future (exceptionally when the
     * relay is dropped). A 502 now when no relay is connected or too many requests wait.
     */
    CompletableFuture<Answer> send(UUID clusterId, Envelope envelope) {
        Channel c = channels.get(clusterId);
        if (c == null || c.dropped) {
            throw unreachable("its relay is not connected");
        }
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        if (!c.queue.offer(new Pending(envelope, answer))) {
            throw unreachable("its relay has too many requests waiting");
        }
        return answer;
    }

    /** Stops waiting for the answer to {@code requestId} (its waiter gave up, or it was answered another way). */
    void forget(UUID clusterId, String requestId) {
        Channel c = channels.get(clusterId);
        if (c != null) {
            c.inFlight.remove(requestId);
        }
    }

    /** The next request for the relay, waiting up to the poll wait; empty when none came or the relay was dropped. */
    Optional<Envelope> next(UUID clusterId) {
        Channel c = channels.compute(clusterId, (k, old) -> old == null || old.dropped ? new Channel() : old);
        c.lastPollNanos = System.nanoTime();
        try {
            Pending p = c.queue.poll(pollWait.toMillis(), TimeUnit.MILLISECONDS);
            c.lastPollNanos = System.nanoTime();
            if (p == null || p == DROPPED || p.answer.isDone()) {
                return Optional.empty();
            }
            c.inFlight.put(p.envelope.id(), p.answer);
            return Optional.of(p.envelope);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Completes the request {@code requestId}; false when nothing waits for it (answered, timed out or unknown). */
    boolean answer(UUID clusterId, String requestId, Answer answer) {
        Channel c = channels.get(clusterId);
        CompletableFuture<Answer> waiting = c == null ? null : c.inFlight.remove(requestId);
        return waiting != null && waiting.complete(answer);
    }

    /** Drops the relay of {@code clusterId}: waiting requests fail, a waiting poll returns empty. */
    void drop(UUID clusterId) {
        Channel c = channels.remove(clusterId);
        if (c == null) {
            return;
        }
        c.dropped = true;
        c.queue.forEach(p -> {
            if (p.answer != null) {
                p.answer.completeExceptionally(new IllegalStateException("dropped"));
            }
        });
        c.inFlight.values().forEach(f -> f.completeExceptionally(new IllegalStateException("dropped")));
        c.queue.offer(DROPPED);
    }

    private static ApiProblem unreachable(String why) {
        return new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, "the cluster is reached through its relay, but " + why);
    }
}
