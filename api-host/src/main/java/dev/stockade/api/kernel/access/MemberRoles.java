package dev.stockade.api.kernel.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The roles a principal holds in an organization and one of its projects, as {@code org_members} and
 * {@code project_members} store them. Every authorization asks for them, so they are kept in memory: any
 * {@link Topic#ACCESS} event (every membership write publishes one, and every replica follows them) drops them all,
 * and {@code config.tokenCacheTtl} bounds the age of an answer whose row went away without an event (a cascade).
 */
@Singleton
public final class MemberRoles {
    /** Who asks where; {@code person}: a user, whose organization role counts (a token has none). */
    record Key(UUID orgId, @Nullable UUID projectId, String principalType, UUID principal, boolean person) {
    }

    /** The stored roles ({@code ADMIN}, {@code MEMBER} or null for none). */
    record Held(@Nullable String orgRole, @Nullable String projectRole) {
    }

    private record Stamped(Held held, long generation) {
    }

    private final Sql jdbc;
    private final Cache<Key, Stamped> cache;
    // INVARIANT: moves before the cache is cleared, so an answer read while an ACCESS event arrived is never reused.
    private final AtomicLong generation = new AtomicLong();

    public MemberRoles(Sql jdbc, PlatformConfig config, EventStream events) {
        this.jdbc = jdbc;
        this.cache = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(config.tokenCacheTtl()).build();
        events.subscribe(Topic.ACCESS, e -> forgetAll());
    }

    /** The roles {@code key} names, from memory when no membership changed since they were read. */
    Held of(Key key) {
        long now = generation.get();
        Stamped hit = cache.getIfPresent(key);
        if (hit != null && hit.generation == now) {
            return hit.held;
        }
        Held read = read(key);
        cache.put(key, new Stamped(read, now));
        return read;
    }

    /** Drops every remembered role (a membership changed somewhere). */
    void forgetAll() {
        generation.incrementAndGet();
        cache.invalidateAll();
    }

    private Held read(Key k) {
        return jdbc.first("SELECT (SELECT role FROM org_members WHERE org_id = ? AND user_id = ?),"
                + " (SELECT role FROM project_members WHERE project_id = ? AND principal_type = ? AND principal_id = ?)",
                Arrays.asList(k.orgId(), k.person() ? k.principal() : null, k.projectId(), k.principalType(),
                        k.principal()),
                rs -> new Held(rs.getString(1), rs.getString(2))).orElseThrow();
    }
}
