package dev.stockade.api.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.host.retry.Backoff;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.annotation.PreDestroy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the events table to subscribers on this replica, in commit order of their ids: one thread holds a
 * connection that {@code LISTEN}s on {@code stockade_events} and, on every notification (and every
 * {@code events.poll-interval} as a safety net for a lost notification or a reconnect), reads the rows after the
 * last one it delivered. Subscribers are called on that thread and must return quickly (hand work to their own
 * executor). Only events committed after this replica started are delivered; features rebuild their state from
 * their own tables at start.
 */
@Context
public final class EventStream {
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    private static final int BATCH = 500;

    /** One committed event. */
    public record Event(long id, Topic topic, UUID orgId, JsonNode payload, Instant createdAt) {
    }

    private record Subscription(Topic topic, Consumer<Event> consumer) {
    }

    private final DataSource dataSource;
    private final long pollMillis;
    private final ObjectMapper json;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile long lastId = -1;
    /** The last event id whose subscribers have all been called. */
    private volatile long deliveredThrough = -1;
    /** Notified after each batch is delivered (see {@link #awaitDelivered}). */
    private final Object delivered = new Object();

    public EventStream(DataSource dataSource, @Value("${events.poll-interval:2s}") Duration pollInterval,
                       ObjectMapper json) {
        this.json = json;
        this.dataSource = dataSource instanceof DelegatingDataSource d ? d.getTargetDataSource() : dataSource;
        this.pollMillis = Math.max(10, pollInterval.toMillis());
        this.thread = new Thread(this::run, "event-stream");
        thread.setDaemon(true);
        thread.start();
    }

    /** Calls {@code consumer} for every event of {@code topic} committed from now on. */
    public void subscribe(Topic topic, Consumer<Event> consumer) {
        subscriptions.add(new Subscription(topic, consumer));
    }

    /**
     * Waits until the event {@code id} (committed) has been delivered to this replica's subscribers, at most
     * {@code bound}; gives up quietly after it (the stream is reconnecting: the event still arrives, later).
     */
    public void awaitDelivered(long id, Duration bound) {
        if (Thread.currentThread() == thread) {
            return; // a subscriber publishing: the event follows this batch on this very thread
        }
        long deadline = System.nanoTime() + bound.toNanos();
        synchronized (delivered) {
            while (deliveredThrough < id && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    LOG.warn("event {} not yet delivered on this replica after {} ms", id, bound.toMillis());
                    return;
                }
                try {
                    delivered.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    @PreDestroy
    public void close() {
        closed = true;
        thread.interrupt();
    }

    private void run() {
        Backoff backoff = new Backoff(Duration.ofMillis(pollMillis), Duration.ofSeconds(30));
        while (!closed) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN stockade_events");
                }
                if (lastId < 0) {
                    lastId = maxId(c);
                    deliveredThrough = lastId;
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                backoff.reset();
                while (!closed) {
                    deliverAfter(c);
                    pg.getNotifications((int) pollMillis); // blocks until a notification or the poll interval
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.warn("event stream interrupted, reconnecting: {}", e.getMessage());
                try {
                    backoff.pause(); // before reconnecting to a database that just failed
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private static long maxId(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COALESCE(max(id), 0) FROM events")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void deliverAfter(Connection c) throws SQLException {
        int n;
        do {
            n = 0;
            try (PreparedStatement ps = c.prepareStatement("SELECT id, topic, org_id, payload::text, created_at"
                    + " FROM events WHERE id > ? ORDER BY id LIMIT " + BATCH)) {
                ps.setLong(1, lastId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        n++;
                        lastId = rs.getLong(1);
                        Optional<Topic> topic = Topic.of(rs.getString(2));
                        if (topic.isPresent()) { // a topic of a newer replica: nobody here subscribes to it
                            dispatch(new Event(lastId, topic.get(), rs.getObject(3, UUID.class),
                                    readPayload(rs.getString(4)), rs.getTimestamp(5).toInstant()));
                        }
                        deliveredThrough = lastId;
                    }
                }
            }
        } while (n == BATCH);
        synchronized (delivered) {
            delivered.notifyAll();
        }
    }

    private JsonNode readPayload(String text) {
        try {
            return json.readTree(text);
        } catch (java.io.IOException e) {
            return json.createObjectNode();
        }
    }

    private void dispatch(Event e) {
        for (Subscription s : subscriptions) {
            if (s.topic() == e.topic()) {
                try {
                    s.consumer().accept(e);
                } catch (RuntimeException ex) {
                    LOG.error("event subscriber for `{}` failed on event {}", s.topic(), e.id(), ex);
                }
            }
        }
    }
}
