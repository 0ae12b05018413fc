package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.secrets.SecretBox;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** The installation's single row: its id, enrollment with the hub (the fleet access token sealed) and heartbeat. */
@Singleton
record InstallationStore(Sql jdbc, SecretBox secrets) {
    /** The stored enrollment state. {@code hubToken} is the opened fleet access token; never log or return it. */
    public record Row(UUID installationId, String fleetId, String hubUrl, String hubToken, Instant enrolledAt,
                      String owner, String authMode, Instant revokedAt, boolean devHub, Instant lastHeartbeatAt,
                      String heartbeatError) {
        public boolean enrolled() {
            return enrolledAt != null && revokedAt == null;
        }
    }

    /** The row, created on first call. */
    public Row load() {
        jdbc.prepare("INSERT INTO installation (id, installation_id) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                ps -> {
                    ps.setObject(1, UUID.randomUUID(), Types.OTHER);
                    return ps.executeUpdate();
                });
        return jdbc.prepare("SELECT installation_id, fleet_id, hub_url, hub_token, enrolled_at, owner, auth_mode,"
                + " revoked_at, dev_hub, last_heartbeat_at, heartbeat_error FROM installation WHERE id = 1", ps -> {
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        String sealed = rs.getString(4);
                        return new Row(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                                sealed == null ? null : secrets.open(sealed, "hub-token"), instant(rs, 5),
                                rs.getString(6), rs.getString(7), instant(rs, 8), rs.getBoolean(9), instant(rs, 10),
                                rs.getString(11));
                    }
                });
    }

    /**
     * Remembers the fleet this installation belongs to and its access token (sealed). A different fleet than the one
     * stored starts over: enrollment and revocation belong to a fleet, so both are cleared.
     */
    public void saveFleet(String fleetId, String hubUrl, String accessToken, boolean devHub) {
        update("UPDATE installation SET enrolled_at = CASE WHEN fleet_id IS DISTINCT FROM ? THEN NULL ELSE enrolled_at END,"
                + " revoked_at = CASE WHEN fleet_id IS DISTINCT FROM ? THEN NULL ELSE revoked_at END,"
                + " fleet_id = ?, hub_url = ?, hub_token = ?, dev_hub = ? WHERE id = 1",
                fleetId, fleetId, fleetId, hubUrl, secrets.seal(accessToken, "hub-token"), devHub);
    }

    public void markEnrolled(String owner, String authMode) {
        update("UPDATE installation SET enrolled_at = now(), owner = ?, auth_mode = ?, revoked_at = NULL WHERE id = 1",
                owner, authMode);
    }

    public void markRevoked() {
        update("UPDATE installation SET revoked_at = now() WHERE id = 1 AND revoked_at IS NULL");
    }

    public void heartbeat(Optional<String> error) {
        if (error.isEmpty()) {
            update("UPDATE installation SET last_heartbeat_at = now(), heartbeat_error = NULL WHERE id = 1");
        } else {
            update("UPDATE installation SET heartbeat_error = ? WHERE id = 1", error.get());
        }
    }

    private void update(String sql, Object... args) {
        jdbc.prepare(sql, ps -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        });
    }

    private static Instant instant(ResultSet rs, int column) throws java.sql.SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
