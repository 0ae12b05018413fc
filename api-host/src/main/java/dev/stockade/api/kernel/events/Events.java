package dev.stockade.api.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import jakarta.inject.Singleton;
import java.sql.Types;
import java.util.Map;
import java.util.UUID;

/**
 * Events through the database: a row written on the caller's transaction (so it exists if and only if the change
 * committed) and a {@code NOTIFY stockade_events} that wakes listeners on every replica after commit. Topics are the
 * closed list of {@link Topic}.
 */
@Singleton
public final class Events {
    private final Sql jdbc;
    private final ObjectMapper json = new ObjectMapper();

    public Events(Sql jdbc) {
        this.jdbc = jdbc;
    }

    /** Records an event of {@code topic} on the caller's transaction ({@code orgId} null: installation-wide). */
    public void publish(Topic topic, UUID orgId, Map<String, Object> payload) {
        jdbc.prepare("INSERT INTO events (topic, org_id, payload) VALUES (?, ?, ?::jsonb)", ps -> {
            ps.setString(1, topic.slug());
            ps.setObject(2, orgId, Types.OTHER);
            try {
                ps.setString(3, json.writeValueAsString(payload));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("event payload is not serialisable", e);
            }
            return ps.executeUpdate();
        });
    }
}
