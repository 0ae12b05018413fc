package dev.stockade.api.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import jakarta.inject.Singleton;
import io.micronaut.transaction.TransactionOperations;
import io.micronaut.transaction.TransactionStatus;
import io.micronaut.transaction.support.TransactionSynchronization;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Duration;
import java.util.Optional;
import java.util.Map;
import java.util.UUID;

/**
 * Events through the database: a row written on the caller's transaction (so it exists if and only if the change
 * committed) and a {@code NOTIFY stockade_events} that wakes listeners on every replica after commit. Topics are the
 * closed list of {@link Topic}.
 */
@Singleton
public final class Events {
    /** How long a committing request waits for this replica to have delivered its own event. */
    private static final Duration OWN_DELIVERY = Duration.ofSeconds(2);

    private final Sql jdbc;
    private final ObjectMapper json;
    private final TransactionOperations<Connection> transactions;
    private final EventStream stream;

    public Events(Sql jdbc, ObjectMapper json, TransactionOperations<Connection> transactions, EventStream stream) {
        this.json = json;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.stream = stream;
    }

    /**
     * Records an event of {@code topic} on the caller's transaction ({@code orgId} null: installation-wide). Once the
     * transaction commits, the caller waits (bounded) until this replica's subscribers have had the event, so a
     * request that changed something and the next request to this replica see the same state: a tool just hidden, a
     * member just removed, a halt just set are in force here before the change is acknowledged.
     */
    public void publish(Topic topic, UUID orgId, Map<String, Object> payload) {
        long id = jdbc.prepare("INSERT INTO events (topic, org_id, payload) VALUES (?, ?, ?::jsonb) RETURNING id", ps -> {
            ps.setString(1, topic.slug());
            ps.setObject(2, orgId, Types.OTHER);
            try {
                ps.setString(3, json.writeValueAsString(payload));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("event payload is not serialisable", e);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
        Optional<? extends TransactionStatus<?>> tx = transactions.findTransactionStatus();
        if (tx.isPresent()) {
            tx.get().registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    stream.awaitDelivered(id, OWN_DELIVERY);
                }
            });
        } else {
            stream.awaitDelivered(id, OWN_DELIVERY);
        }
    }
}
