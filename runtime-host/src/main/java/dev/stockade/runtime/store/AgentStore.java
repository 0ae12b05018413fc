package dev.stockade.runtime.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/** The agent row: first-boot seeding, the chat settings and the lock, identity edits. */
public final class AgentStore {
    private final Store store;

    public AgentStore(Store store) {
        this.store = store;
    }

    /**
     * Creates the agent when the database is empty, from AGENT_ID (or a fresh UUID), AGENT_NAME,
     * TEAM_NAME, OWNER_USER_ID and the settings file's model ids; does nothing for an existing agent.
     */
    public AgentProfile seed(RuntimeConfig cfg, Consumer<String> warn) throws SQLException {
        AgentProfile existing = profile();
        if (existing != null) {
            return existing;
        }
        String pinned = cfg.settings().nonBlank("AGENT_ID");
        String id = pinned != null ? UUID.fromString(pinned).toString() : UUID.randomUUID().toString();
        Path file = cfg.dataDir().resolve("settings.json");
        JsonNode seeds = readSettingsFile(file, warn);
        store.update("INSERT INTO agent (id, name, team_name, owner_user_id, model_override, "
                + "heartbeat_model_override, cron_model_override, created_at) VALUES (?,?,?,?,?,?,?,?)",
                id, cfg.value("AGENT_NAME"), cfg.value("TEAM_NAME"), cfg.value("OWNER_USER_ID"),
                modelSeed(seeds, "modelId"), modelSeed(seeds, "heartbeatModelId"), modelSeed(seeds, "cronModelId"),
                Instant.now().toString());
        return profile();
    }

    private static JsonNode readSettingsFile(Path file, Consumer<String> warn) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return StrictJson.object(Files.readAllBytes(file));
        } catch (MalformedJson e) {
            warn.accept(file + ": the file " + e.getMessage() + "; no model overrides seeded");
        } catch (IOException e) {
            warn.accept(file + ": cannot be read (" + e.getClass().getSimpleName() + "); no model overrides seeded");
        }
        return null;
    }

    /** A model id seed: a non-blank string without whitespace or control characters, else empty. */
    static String modelSeed(JsonNode seeds, String key) {
        if (seeds == null || !seeds.path(key).isTextual()) {
            return null;
        }
        String v = seeds.get(key).asText().strip();
        return v.isEmpty() || v.length() > 200 || !v.matches("[A-Za-z0-9._:/@-]+") ? null : v;
    }

    /** The agent, or {@code null} before first boot. */
    public AgentProfile profile() throws SQLException {
        return store.one("SELECT * FROM agent", AgentStore::row);
    }

    private static AgentProfile row(ResultSet rs) throws SQLException {
        return new AgentProfile(rs.getString("id"), rs.getString("name"), rs.getString("team_name"),
                rs.getString("owner_user_id"), rs.getString("model_override"),
                rs.getString("heartbeat_model_override"), rs.getString("cron_model_override"),
                rs.getInt("verbose") != 0, rs.getInt("locked_in") != 0, rs.getString("timezone"),
                rs.getInt("heartbeat_interval_minutes"));
    }

    public void setVerbose(boolean verbose) throws SQLException {
        store.update("UPDATE agent SET verbose = ?", verbose ? 1 : 0);
    }

    public void setLockedIn(boolean lockedIn) throws SQLException {
        store.update("UPDATE agent SET locked_in = ?", lockedIn ? 1 : 0);
    }

    public void rename(String name) throws SQLException {
        store.update("UPDATE agent SET name = ?", name);
    }

    public void setTimezone(String zone) throws SQLException {
        store.update("UPDATE agent SET timezone = ?", zone);
    }

    public void setHeartbeatInterval(int minutes) throws SQLException {
        store.update("UPDATE agent SET heartbeat_interval_minutes = ?", minutes);
    }

    /** Sets one of the three model overrides ({@code main}, {@code heartbeat}, {@code cron}); null clears. */
    public void setModel(String which, String model) throws SQLException {
        String column = List.of("main", "heartbeat", "cron").contains(which)
                ? (which.equals("main") ? "model_override" : which + "_model_override") : null;
        if (column == null) {
            throw new IllegalArgumentException("unknown model slot " + which);
        }
        store.update("UPDATE agent SET " + column + " = ?", model == null || model.isBlank() ? null : model.strip());
    }

    /** A runtime flag stored as text (the webhook receiver toggle, staged imports). */
    public String flag(String key) throws SQLException {
        return store.one("SELECT value FROM kv WHERE key = ?", rs -> rs.getString(1), key);
    }

    public void setFlag(String key, String value) throws SQLException {
        store.update("INSERT INTO kv(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                key, value);
    }
}
