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
 * committed) and a {@code NOTIFY stockade_events} that wakes listeners on every replica after commit. Topics today:
 * {@code halt}; proxies, inference and connectors subscribe in their features.
 */
@Singleton
public final class Events {
    private final Sql jdbc;
    private final ObjectMapper json;

    public Events(Sql jdbc, ObjectMapper json) {
        this.json = json;
        this.jdbc = jdbc;
    }

    public void publish(String topic, UUID orgId, Map<String, Object> payload) {
        jdbc.prepare("INSERT INTO events (topic, org_id, payload) VALUES (?, ?, ?::jsonb)", ps -> {
            ps.setString(1, topic);
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
