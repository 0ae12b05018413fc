package dev.stockade.api.signin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.BrowserSession;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.TokenFormat;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Server-side browser sessions: the cookie carries a random id, the database its hash, the person, an expiry
 * ({@value #HOURS} hours, not extended by use) and a revocation time, so a sign-out ends the session everywhere. The
 * session keeps whether the provider verified the person's address, the one fact of the sign-in the authorization
 * table reads later (the direct-access role gate was passed at sign-in).
 */
@Singleton
final class BrowserSessions implements BrowserSession {
    static final int HOURS = 12;
    static final Duration LIFETIME = Duration.ofHours(HOURS);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The person a live session belongs to. */
    record Session(UUID userId, String email, String name, boolean emailVerified, Instant expiresAt) {
        Identity.User identity() {
            return new Identity.User(userId, email, emailVerified, name, Set.of());
        }
    }

    private final Sql sql;
    private final Clock clock;
    /**
     * Live sessions by the hash of their id, trusted for {@code config.tokenCacheTtl} as bearer tokens are (every
     * admin UI call would otherwise read the table): a sign-out on this replica forgets at once, one on another
     * replica within that bound. An expired session is never answered from here.
     */
    private final Cache<ByteBuffer, Session> live;

    BrowserSessions(Sql sql, Clock clock, PlatformConfig config) {
        this.sql = sql;
        this.clock = clock;
        this.live = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(config.tokenCacheTtl()).build();
    }

    /** A new session for {@code user}; the returned id goes into the cookie and nowhere else. */
    String open(Identity.User user) {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        sql.update("INSERT INTO signin_sessions (id_hash, user_id, expires_at, email_verified) VALUES (?, ?, ?, ?)",
                List.of(TokenFormat.hash(id), user.userId(), Timestamp.from(clock.instant().plus(LIFETIME)),
                        user.emailVerified()));
        return id;
    }

    Optional<Session> find(String id) {
        if (id == null || id.isEmpty() || id.length() > 100) {
            return Optional.empty();
        }
        ByteBuffer key = ByteBuffer.wrap(TokenFormat.hash(id));
        Session known = live.getIfPresent(key);
        if (known != null && known.expiresAt().isAfter(clock.instant())) {
            return Optional.of(known);
        }
        Optional<Session> found = sql.first("SELECT u.id, u.email, u.name, s.email_verified, s.expires_at"
                        + " FROM signin_sessions s"
                        + " JOIN users u ON u.id = s.user_id"
                        + " WHERE s.id_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ?",
                List.of(TokenFormat.hash(id), Timestamp.from(clock.instant())),
                rs -> new Session(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                        rs.getTimestamp(5).toInstant()));
        found.ifPresent(session -> live.put(key, session));
        return found;
    }

    @Override
    public Optional<Identity.User> user(String sessionId) {
        return find(sessionId).map(Session::identity);
    }

    void revoke(String id) {
        if (id != null && id.length() <= 100) {
            live.invalidate(ByteBuffer.wrap(TokenFormat.hash(id)));
            sql.update("UPDATE signin_sessions SET revoked_at = now() WHERE id_hash = ? AND revoked_at IS NULL",
                    List.of(TokenFormat.hash(id)));
        }
    }
}
