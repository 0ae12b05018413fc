package dev.stockade.api.mcp;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.UUID;

/**
 * MCP sessions in PostgreSQL, so any replica serves any session. A session belongs to the identity that initialized
 * it and to one endpoint; presented by anyone else, or at another endpoint, it does not exist. A session found is
 * remembered for {@code config.tokenCacheTtl}, so a busy client costs no query per request; one ended on another
 * replica keeps working here for at most that long (every call is still authenticated and authorized on its own).
 */
@Singleton
public class McpSessions {
    private final Sql jdbc;
    private final Duration idle;
    private final SecureRandom random = new SecureRandom();
    private final Cache<Known, Found> found;

    /** A session id as presented by one principal; another principal presenting it never shares the entry. */
    private record Known(String id, String principal) {
    }

    private record Found(@Nullable UUID projectId, Session session) {
    }

    public McpSessions(Sql jdbc, @Value("${mcp.session-idle-timeout:24h}") Duration idle, PlatformConfig config) {
        this.jdbc = jdbc;
        this.idle = idle;
        this.found = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(config.tokenCacheTtl()).build();
    }

    /** Sessions unused for {@code mcp.session-idle-timeout} (24 h) end; their clients initialize again (404). */
    @Scheduled(fixedDelay = "10m", initialDelay = "1m")
    void expire() {
        jdbc.prepare("DELETE FROM mcp_sessions WHERE last_used_at < now() - make_interval(secs => ?)", ps -> {
            ps.setLong(1, idle.toSeconds());
            return ps.executeUpdate();
        });
    }

    /** A session as stored. */
    public record Session(String id, String protocolVersion, boolean stale) {
    }

    static String principal(Identity caller) {
        return caller.type() + ":" + caller.actorId();
    }

    public Session open(Identity caller, @Nullable UUID projectId, String protocolVersion, @Nullable String client) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        String id = HexFormat.of().formatHex(bytes);
        jdbc.prepare("INSERT INTO mcp_sessions (id, principal, project_id, protocol_version, client_name)"
                + " VALUES (?, ?, ?, ?, ?)", ps -> {
                    ps.setString(1, id);
                    ps.setString(2, principal(caller));
                    ps.setObject(3, projectId, Types.OTHER);
                    ps.setString(4, protocolVersion);
                    ps.setString(5, client == null ? null : client.substring(0, Math.min(client.length(), 200)));
                    return ps.executeUpdate();
                });
        return new Session(id, protocolVersion, false);
    }

    /** The caller's session {@code id} at this endpoint, or null. */
    @Nullable
    public Session find(Identity caller, @Nullable UUID projectId, String id) {
        Known key = new Known(id, principal(caller));
        Found hit = found.getIfPresent(key);
        if (hit == null) {
            hit = read(key);
            if (hit == null) {
                return null; // an unknown id is never remembered: a session opened later is found at once
            }
            found.put(key, new Found(hit.projectId(), new Session(id, hit.session().protocolVersion(), false)));
        }
        return Objects.equals(hit.projectId(), projectId) ? hit.session() : null;
    }

    @Nullable
    private Found read(Known key) {
        Found row = jdbc.prepare("SELECT project_id, protocol_version, last_used_at < now() - interval '1 minute'"
                + " FROM mcp_sessions WHERE id = ? AND principal = ?", ps -> {
                    ps.setString(1, key.id());
                    ps.setString(2, key.principal());
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? new Found(rs.getObject(1, UUID.class),
                                new Session(key.id(), rs.getString(2), rs.getBoolean(3))) : null;
                    }
                });
        if (row != null && row.session().stale()) { // recorded at most once a minute: a read per request, not a write
            jdbc.prepare("UPDATE mcp_sessions SET last_used_at = now() WHERE id = ?", ps -> {
                ps.setString(1, key.id());
                return ps.executeUpdate();
            });
        }
        return row;
    }

    public boolean close(Identity caller, String id) {
        found.invalidate(new Known(id, principal(caller)));
        return jdbc.prepare("DELETE FROM mcp_sessions WHERE id = ? AND principal = ?", ps -> {
            ps.setString(1, id);
            ps.setString(2, principal(caller));
            return ps.executeUpdate() > 0;
        });
    }
}
