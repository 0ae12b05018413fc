package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.db.Sql;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Enrollment sessions in PostgreSQL (table {@code enrollment_session}), so any replica can finish what another began
 * and a restart loses nothing. A session starts with the right setup code, carries a state through the hub (stored
 * only hashed, claimed once) and ends enrolled or failed; a pending session past its expiry reads as expired.
 */
@Singleton
record EnrollmentSessions(Sql sql) {
    /** Who started the session: the setup screen in a browser, or a CLI through the activation device flow. */
    enum Kind { BROWSER, DEVICE }

    /** A new session: its id, the state handed to the hub, and (setup screen) the browser's cookie value. */
    record Started(String id, String state, String binding) {
    }

    /** A claimed session: its id and kind. */
    record Claimed(String id, Kind kind) {
    }

    /** What a poller sees: {@code pending}, {@code enrolled}, {@code failed} or {@code expired}, and why it failed. */
    record Status(String status, String error) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    Started create(Kind kind, Duration ttl) {
        Started s = new Started(random(), random(), kind == Kind.BROWSER ? random() : null);
        // sessions past their expiry by a day are of no use to anyone: dropping them keeps the table small
        sql.prepare("DELETE FROM enrollment_session WHERE expires_at < now() - interval '1 day'", ps -> ps.executeUpdate());
        sql.prepare("INSERT INTO enrollment_session (id, kind, state_hash, binding_hash, expires_at)"
                + " VALUES (?, ?, ?, ?, now() + ? * interval '1 second')", ps -> {
                    ps.setString(1, s.id());
                    ps.setString(2, kind.name().toLowerCase(java.util.Locale.ROOT));
                    ps.setString(3, hash(s.state()));
                    ps.setString(4, s.binding() == null ? null : hash(s.binding()));
                    ps.setLong(5, ttl.toSeconds());
                    return ps.executeUpdate();
                });
        return s;
    }

    /**
     * Claims the pending, unexpired session a state belongs to; a state works once. A setup-screen session is bound
     * to the browser that entered the code: its cookie must come back with the state.
     */
    Optional<Claimed> claim(String state, String cookie) {
        return sql.first("UPDATE enrollment_session SET status = 'exchanging' WHERE state_hash = ?"
                + " AND status = 'pending' AND expires_at > now() AND (kind = 'device' OR binding_hash = ?)"
                + " RETURNING id, kind", List.of(hash(state), cookie == null ? "" : hash(cookie)),
                rs -> new Claimed(rs.getString(1), Kind.valueOf(rs.getString(2).toUpperCase(java.util.Locale.ROOT))));
    }

    void finish(String id, String error) {
        sql.update("UPDATE enrollment_session SET status = ?, error = ? WHERE id = ?",
                Arrays.asList(error == null ? "enrolled" : "failed", error, id));
    }

    Optional<Status> status(String id) {
        return sql.prepare("SELECT status, error, expires_at < now() FROM enrollment_session WHERE id = ?", ps -> {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String status = rs.getString(1);
                boolean open = status.equals("pending") || status.equals("exchanging");
                if (open && rs.getBoolean(3)) {
                    return Optional.of(new Status("expired", null));
                }
                return Optional.of(new Status(open ? "pending" : status, rs.getString(2)));
            }
        });
    }

    static String hash(String value) {
        return HexFormat.of().formatHex(SetupCode.sha256(value));
    }

    private static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
