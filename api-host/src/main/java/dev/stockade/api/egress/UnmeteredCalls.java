package dev.stockade.api.egress;

import dev.stockade.api.spend.TokenBuckets;
import dev.stockade.api.spend.UsageLedger;
import dev.stockade.policy.model.Provider;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.EgressReason;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sandbox's direct calls to a managed provider's API host, seen by the egress proxy, into the usage ledger as
 * unmetered rows (no tokens, no cost, model {@code unknown}): they escape spending limits, so usage reads show them as
 * {@code unmeteredCalls} (spec: "Spending limits"). The ledger write is a database transaction and the proxy calls its
 * audit sink on its event loop, so rows are written by one thread of their own behind a bounded queue; when the queue
 * is full a row is dropped with a warning rather than stalling sandbox traffic (the audit entry still carries the
 * flag).
 */
@Singleton
class UnmeteredCalls {
    private static final Logger LOG = LoggerFactory.getLogger(UnmeteredCalls.class);
    /** What the proxy can know of the model of a call it only forwards: the body is never read for it. */
    static final String UNKNOWN_MODEL = "unknown";
    /**
     * The lines that are one call each: a request (plain, intercepted or on the passthrough port) or a spliced TLS
     * connection, whose requests the proxy cannot see. A CONNECT line is not one: each request inside its tunnel is,
     * and so is not a websocket message inside an upgraded request that was counted already.
     */
    private static final Set<String> ONE_CALL = Set.of("http", "intercepted", "passthrough-http", "passthrough");

    private final UsageLedger ledger;
    private final ThreadPoolExecutor writer;
    private final AtomicLong dropped = new AtomicLong();

    UnmeteredCalls(UsageLedger ledger, @Value("${sandbox.egress.unmetered-queue:10000}") int queue) {
        this.ledger = ledger;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(Math.max(1, queue)),
                r -> {
                    Thread t = new Thread(r, "egress-unmetered-ledger");
                    t.setDaemon(true);
                    return t;
                }, (r, pool) -> LOG.warn("an unmetered provider call was not written to the ledger: {} ({} so far)",
                        pool.isShutdown() ? "shutting down" : "queue full", dropped.incrementAndGet()));
    }

    /**
     * The managed provider an allowed line's call went to directly, if it is one to count: allowed, one call (above),
     * to a host of a backend the ledger knows (a vendor that is not one of the platform's providers, Anthropic's own
     * API for one, is flagged in the audit trail only), and not refused by the origin's absence (the provider never
     * saw it).
     */
    static Optional<Provider> counted(AuditEvent e) {
        if (!"allow".equals(e.verdict()) || !ONE_CALL.contains(e.listener())
                || e.reason() == EgressReason.ORIGIN_UNREACHABLE) {
            return Optional.empty();
        }
        return e.unmeteredProvider().flatMap(v -> Optional.ofNullable(Provider.fromWire(v.wire())));
    }

    /** Writes the line's ledger row, if it counts, off the caller's thread. */
    void record(AuditEvent e, EgressAudit.Owner owner) {
        counted(e).ifPresent(provider -> writer.execute(() -> write(e, owner, provider)));
    }

    private void write(AuditEvent e, EgressAudit.Owner owner, Provider provider) {
        try {
            ledger.record(new UsageLedger.Usage(owner.orgId(), owner.projectId(), sandboxId(e.sandbox()), provider,
                    UNKNOWN_MODEL, TokenBuckets.NONE, null, false, e.time()));
        } catch (RuntimeException err) {
            LOG.warn("an unmetered provider call of sandbox {} was not written to the ledger: {}", e.sandbox(),
                    err.getMessage());
        }
    }

    private static UUID sandboxId(String name) {
        try {
            return UUID.fromString(name);
        } catch (IllegalArgumentException notAnId) {
            return null; // a sandbox the platform names otherwise is still its project's call
        }
    }

    /** Writes what is queued (bounded), then stops. */
    @PreDestroy
    void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("unmetered provider calls still queued at shutdown were not written: {}",
                        writer.shutdownNow().size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
