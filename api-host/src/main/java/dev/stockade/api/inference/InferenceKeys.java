package dev.stockade.api.inference;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.kernel.Slugged;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.config.InferenceConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Events;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.secrets.DataFiles;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.policy.model.Provider;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * The keys managed inference sends upstream: an organization's own key per backend (sealed at rest with the
 * installation's envelope encryption, never returned or logged), else the installation's key when
 * {@code inference.deploymentKeyFallback} is on. Which one a call uses is decided here and nowhere else.
 */
@Singleton
public class InferenceKeys {
    /** Whose key a call uses. */
    public enum Source implements Slugged {
        ORG,
        DEPLOYMENT,
        /** No key: Bedrock calls signed with the platform's own AWS credentials (ambient credentials). */
        AMBIENT;
    }

    /**
     * A key to send upstream, and whose it is: an API key ({@code secret}), or for {@link Source#AMBIENT} the AWS
     * credentials a Bedrock call is signed with ({@code aws}, the secret then null). {@link #toString} never shows
     * either.
     */
    public record UpstreamKey(Provider provider, Source source, @Nullable String secret,
                              @Nullable AwsCredentialsIdentity aws) {
        public UpstreamKey(Provider provider, Source source, String secret) {
            this(provider, source, secret, null);
        }

        @Override
        public String toString() {
            return "UpstreamKey[" + provider.wire() + ", " + source.slug() + "]";
        }
    }

    /** What the key list shows of one stored key: never the key itself. */
    public record StoredKey(Provider provider, Instant updatedAt, String updatedBy) {
    }

    private final Sql jdbc;
    private final SecretBox box;
    private final InferenceConfig config;
    private final PlatformConfig platform;
    private final AuditLog audit;
    private final Events events;
    private final Clock clock;
    private final AmbientAwsCredentials ambient;
    /** The installation's keys, read from their secrets once (a changed secret takes effect at restart). */
    private final Map<Provider, String> deployment = new ConcurrentHashMap<>();
    /**
     * Which stored key a call sends, per organization and backend, until a governance event on this replica.
     * Ambient credentials are never kept here: the AWS chain refreshes its own.
     */
    private final Cache<String, Optional<UpstreamKey>> chosen = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).build();
    private final AtomicLong generation = new AtomicLong();

    InferenceKeys(Sql jdbc, SecretBox box, InferenceConfig config, PlatformConfig platform, AuditLog audit,
                  Events events, EventStream stream, Clock clock, AmbientAwsCredentials ambient) {
        this.jdbc = jdbc;
        this.box = box;
        this.config = config;
        this.platform = platform;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
        this.ambient = ambient;
        stream.subscribe(Topic.GOVERNANCE, e -> {
            generation.incrementAndGet();
            chosen.invalidateAll();
        });
    }

    /** The organization's stored keys, by backend. */
    public List<StoredKey> stored(UUID orgId) {
        return jdbc.query("SELECT source, updated_at, updated_by FROM inference_keys WHERE org_id = ? ORDER BY source",
                List.of(orgId), rs -> new StoredKey(Provider.fromWire(rs.getString(1)),
                        rs.getTimestamp(2).toInstant(), rs.getString(3)));
    }

    /** Stores (or replaces) the organization's key for {@code provider}, audited without the key. */
    @Transactional
    public StoredKey put(Identity caller, UUID orgId, Provider provider, String key) {
        Instant now = clock.instant();
        jdbc.update("INSERT INTO inference_keys (org_id, source, sealed, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (org_id, source) DO UPDATE SET sealed = EXCLUDED.sealed,"
                + " updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by",
                List.of(orgId, provider.wire(), box.seal(key, context(orgId, provider)), now, caller.actorId()));
        audit.record(AuditEvent.of(AuditKind.INFERENCE_KEY, "set").org(orgId).by(caller).target(provider.wire())
                .build());
        changed(orgId, provider);
        return new StoredKey(provider, now, caller.actorId());
    }

    /** Removes the organization's key for {@code provider}; whether there was one. */
    @Transactional
    public boolean delete(Identity caller, UUID orgId, Provider provider) {
        int n = jdbc.update("DELETE FROM inference_keys WHERE org_id = ? AND source = ?",
                List.of(orgId, provider.wire()));
        if (n > 0) {
            audit.record(AuditEvent.of(AuditKind.INFERENCE_KEY, "delete").org(orgId).by(caller)
                    .target(provider.wire()).build());
            changed(orgId, provider);
        }
        return n > 0;
    }

    /** Which backends the organization has its own key for. */
    public Map<Provider, Boolean> orgHasKey(UUID orgId) {
        Map<Provider, Boolean> out = new java.util.EnumMap<>(Provider.class);
        for (Provider p : Provider.values()) {
            out.put(p, false);
        }
        stored(orgId).forEach(k -> out.put(k.provider(), true));
        return out;
    }

    /**
     * The key a call of {@code orgId} to {@code provider} sends upstream: the organization's, else the installation's
     * when the fallback is on, else for Bedrock with {@code inference.bedrock.ambient-credentials} the credentials the
     * AWS default chain finds now; empty when the install does not serve the backend or there is no key.
     */
    public Optional<UpstreamKey> keyFor(UUID orgId, Provider provider) {
        if (!config.serves(provider)) {
            return Optional.empty();
        }
        Optional<UpstreamKey> stored = chosen.get(generation.get() + "|" + orgId + "|" + provider.wire(),
                k -> choose(orgId, provider));
        if (stored.isPresent() || !offersAmbient(provider)) {
            return stored;
        }
        return ambient.current().map(c -> new UpstreamKey(provider, Source.AMBIENT, null, c));
    }

    private Optional<UpstreamKey> choose(UUID orgId, Provider provider) {
        List<String> sealed = jdbc.query("SELECT sealed FROM inference_keys WHERE org_id = ? AND source = ?",
                List.of(orgId, provider.wire()), rs -> rs.getString(1));
        if (!sealed.isEmpty()) {
            return Optional.of(new UpstreamKey(provider, Source.ORG,
                    box.open(sealed.get(0), context(orgId, provider))));
        }
        if (config.deploymentKeyFallback() && config.hasDeploymentKey(provider)) {
            return Optional.of(new UpstreamKey(provider, Source.DEPLOYMENT, deployment.computeIfAbsent(provider,
                    p -> DataFiles.secret(platform, config.backend(p).apiKeySecret(), "apiKey"))));
        }
        return Optional.empty();
    }

    /**
     * A key changed: a governance event (the default backend of the organization's resolutions may change with it,
     * and every replica drops the keys it chose).
     */
    private void changed(UUID orgId, Provider provider) {
        events.publish(Topic.GOVERNANCE, orgId, Map.of("kind", "inference-key", "source", provider.wire()));
    }

    /** Whether calls to {@code provider} without a key are signed with ambient AWS credentials (Bedrock only). */
    public boolean offersAmbient(Provider provider) {
        return provider == Provider.BEDROCK && config.serves(provider) && config.bedrock().ambientCredentials();
    }

    private static String context(UUID orgId, Provider provider) {
        return "inference-key:" + orgId + ":" + provider.wire();
    }
}
