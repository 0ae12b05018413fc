package dev.stockade.api.kernel.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import io.micronaut.context.annotation.Value;
import io.micronaut.transaction.TransactionOperations;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for the many small entries enforcement points report (decisions from proxies): callers enqueue, a few
 * writer threads ({@code audit.appender.writers}, each on its own connection) each append whatever has queued up in
 * one multi-row INSERT, a statement of its own and so its own transaction, so a single commit (one WAL flush with
 * synchronous_commit on) carries many entries in one round trip to the database. More than one writer keeps a batch
 * being built and inserted while another waits for its flush, and lets PostgreSQL flush several commits together.
 *
 * <p>A caller that waits for its entries anyway (a tool call answers only after its entry) uses {@link #commitAll}:
 * when no other such caller is committing directly, its own thread writes them, which spares the hand-off to a writer
 * and back (two thread wake-ups per call, milliseconds on a busy machine); otherwise they join the writers' batches.
 *
 * <p>Durability contract: the future {@link #append} returns completes only after the transaction holding the entry
 * COMMITTED; it completes exceptionally when that transaction failed (nothing of the entry is stored) or the entry
 * was never accepted. A batch that fails is retried one entry per transaction, so one bad entry (an organization
 * deleted meanwhile) fails only its own caller.
 *
 * <p>Back-pressure: the queue is bounded ({@code audit.appender.queue-capacity}); a caller waits up to
 * {@code audit.appender.offer-timeout} for room and is then refused, never buffered without bound. Entries recorded
 * with a change the API makes still go through {@link AuditLog} on that change's transaction.
 */
@Singleton
public final class AuditAppender {
    private static final Logger LOG = LoggerFactory.getLogger(AuditAppender.class);
    // unnest: one statement, one plan, any batch size, every value a bound parameter (no text escaping of our own)
    private static final String INSERT = "INSERT INTO audit_entries (org_id, project_id, kind, action, is_read, outcome,"
            + " actor_type, actor_id, target, details) SELECT o, p, k, a, r, oc, aty, aid, t, d::jsonb FROM unnest("
            + "?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::boolean[], ?::text[], ?::text[], ?::text[], ?::text[],"
            + " ?::text[]) AS u(o, p, k, a, r, oc, aty, aid, t, d)";

    private record Pending(AuditEvent event, CompletableFuture<Void> done) {
    }

    private final Sql jdbc;
    private final ObjectMapper json;
    private final TransactionOperations<Connection> tx;
    private final BlockingQueue<Pending> queue;
    private final int maxBatch;
    private final long offerTimeoutNanos;
    private final List<Thread> writers = new ArrayList<>();
    /** One caller at a time commits on its own thread; the others are grouped by the writers. */
    private final Semaphore direct = new Semaphore(1);
    private volatile boolean closed;

    public AuditAppender(Sql jdbc, TransactionOperations<Connection> tx,
                         @Value("${audit.appender.queue-capacity:65536}") int queueCapacity,
                         @Value("${audit.appender.max-batch:2000}") int maxBatch,
                         @Value("${audit.appender.writers:4}") int writerCount,
                         @Value("${audit.appender.offer-timeout:5s}") Duration offerTimeout, ObjectMapper json) {
        this.json = json;
        if (queueCapacity < 1 || maxBatch < 1 || writerCount < 1 || writerCount > 16) {
            throw new IllegalArgumentException("audit.appender: queue-capacity and max-batch must be at least 1,"
                    + " writers between 1 and 16");
        }
        this.jdbc = jdbc;
        this.tx = tx;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.maxBatch = maxBatch;
        this.offerTimeoutNanos = offerTimeout.toNanos();
        for (int i = 0; i < writerCount; i++) {
            Thread writer = new Thread(this::run, "audit-appender-" + i);
            writer.setDaemon(true);
            writers.add(writer);
            writer.start();
        }
    }

    /** Queues one entry; the future completes once it is committed (see the class comment). */
    public CompletableFuture<Void> append(AuditEvent event) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (closed) {
            done.completeExceptionally(new RejectedExecutionException("the audit appender is stopped"));
            return done;
        }
        try {
            if (!queue.offer(new Pending(event, done), offerTimeoutNanos, TimeUnit.NANOSECONDS)) {
                done.completeExceptionally(new RejectedExecutionException("the audit queue is full"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.completeExceptionally(e);
        }
        return done;
    }

    /** Queues many entries; the future completes once every one of them is committed. */
    public CompletableFuture<Void> appendAll(Collection<AuditEvent> events) {
        return CompletableFuture.allOf(events.stream().map(this::append).toArray(CompletableFuture[]::new));
    }

    /**
     * Stores {@code events} and returns once all of them are committed; throws when one was not stored (the others
     * are, as for {@link #appendAll}) or the appender is stopped. Alone, the caller's thread writes them in one
     * statement; while another caller does, or inside a transaction (whose commit must not decide the entries'), they
     * go through the writers.
     */
    public void commitAll(List<AuditEvent> events) {
        if (closed) {
            throw new RejectedExecutionException("the audit appender is stopped");
        }
        if (events.isEmpty()) {
            return;
        }
        if (events.size() <= maxBatch && tx.findTransactionStatus().isEmpty() && direct.tryAcquire()) {
            try {
                List<Pending> mine = events.stream().map(e -> new Pending(e, new CompletableFuture<>())).toList();
                commit(mine);
                mine.forEach(p -> p.done.join()); // completed by commit(); throws for an entry it could not store
                return;
            } finally {
                direct.release();
            }
        }
        appendAll(events).join();
    }

    /** Refuses new entries, commits what is queued, and stops the writer. */
    @PreDestroy
    public void close() {
        closed = true;
        writers.forEach(Thread::interrupt);
        try {
            for (Thread writer : writers) {
                writer.join(TimeUnit.SECONDS.toMillis(30));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Pending> left = new ArrayList<>();
        queue.drainTo(left);
        left.forEach(p -> p.done.completeExceptionally(new RejectedExecutionException("the audit appender stopped")));
    }

    private void run() {
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (true) {
            try {
                if (closed && queue.isEmpty()) {
                    return;
                }
                Pending first = closed ? queue.poll() : queue.take();
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
            } catch (InterruptedException e) {
                continue; // close() interrupts a waiting writer; the loop drains what is left, then returns
            }
            commit(batch);
            batch.clear();
        }
    }

    private void commit(List<Pending> batch) {
        try {
            write(batch);
            batch.forEach(p -> p.done.complete(null));
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                LOG.warn("an audit entry could not be stored: {}", e.getClass().getSimpleName());
                batch.get(0).done.completeExceptionally(e);
                return;
            }
            for (Pending p : batch) { // isolate the entry that broke the batch; the others still commit
                commit(List.of(p));
            }
        }
    }

    /**
     * One statement in autocommit: PostgreSQL runs it as a transaction of its own, all rows or none, and answers only
     * after the commit (the WAL flushed), so one round trip replaces the INSERT and the COMMIT of an explicit one.
     */
    private void write(List<Pending> batch) {
        jdbc.prepare(INSERT, ps -> {
            if (!ps.getConnection().getAutoCommit()) { // a surrounding transaction would decide the entries' commit
                throw new IllegalStateException("audit entries must be written outside a transaction");
            }
            bind(ps, batch);
            return ps.executeUpdate();
        });
    }

    private void bind(PreparedStatement ps, List<Pending> batch) throws SQLException {
        int n = batch.size();
        Object[][] cols = new Object[10][n];
        for (int i = 0; i < n; i++) {
            AuditEvent e = batch.get(i).event;
            cols[0][i] = e.orgId();
            cols[1][i] = e.projectId();
            cols[2][i] = e.kind().slug();
            cols[3][i] = e.action();
            cols[4][i] = e.read();
            cols[5][i] = e.outcome().slug();
            cols[6][i] = e.actorType();
            cols[7][i] = e.actorId();
            cols[8][i] = e.target();
            cols[9][i] = AuditLog.detailsJson(json, e);
        }
        String[] types = {"uuid", "uuid", "text", "text", "bool", "text", "text", "text", "text", "text"};
        Sql.bindColumns(ps, types, cols);
    }
}
