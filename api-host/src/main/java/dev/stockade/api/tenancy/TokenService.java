package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.ApiTokenRepository;
import dev.stockade.api.kernel.identity.ApiTokenRow;
import dev.stockade.api.kernel.identity.Authenticator;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.ProxyTokenRepository;
import dev.stockade.api.kernel.identity.ProxyTokenRow;
import dev.stockade.api.kernel.identity.SandboxTokenRepository;
import dev.stockade.api.kernel.identity.SandboxTokenRow;
import dev.stockade.api.kernel.identity.TokenFormat;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * API tokens (per organization) and sandbox tokens (per project): minted once, shown once, stored hashed, revocable,
 * with an optional expiry. A revocation takes effect at once on this replica and within {@code config.tokenCacheTtl}
 * on others.
 */
@Singleton
public class TokenService {
    /** A token as created: the row and the token itself, which is never stored or shown again. */
    public record Minted<T>(T row, String token) {
    }

    private final ApiTokenRepository apiTokens;
    private final SandboxTokenRepository sandboxTokens;
    private final Authenticator authenticator;
    private final AuditLog audit;
    private final ProxyTokenRepository proxyTokens;
    private final dev.stockade.api.kernel.events.Events events;
    private final Clock clock;

    public TokenService(ApiTokenRepository apiTokens, SandboxTokenRepository sandboxTokens,
                        ProxyTokenRepository proxyTokens, Authenticator authenticator, AuditLog audit,
                        dev.stockade.api.kernel.events.Events events, Clock clock) {
        this.proxyTokens = proxyTokens;
        this.events = events;
        this.apiTokens = apiTokens;
        this.sandboxTokens = sandboxTokens;
        this.authenticator = authenticator;
        this.audit = audit;
        this.clock = clock;
    }

    @Transactional
    public Minted<ApiTokenRow> createApiToken(Identity caller, UUID orgId, String name, Instant expiresAt) {
        checkExpiry(expiresAt);
        String token = TokenFormat.API.mint();
        ApiTokenRow row = apiTokens.save(new ApiTokenRow(UUID.randomUUID(), orgId, false, name.strip(),
                TokenFormat.hash(token), TokenFormat.display(token), caller.actorId(), clock.instant(), expiresAt, null));
        audit.record(AuditEvent.of(AuditKind.API_TOKEN, "create").by(caller).org(orgId).target(row.id().toString())
                .details(Map.of("name", row.name())).build());
        return new Minted<>(row, token);
    }

    /** The installation owner's token, made once on an empty database. */
    @Transactional
    public Minted<ApiTokenRow> createOwnerToken() {
        String token = TokenFormat.API.mint();
        ApiTokenRow row = apiTokens.save(new ApiTokenRow(UUID.randomUUID(), null, true, "installation owner",
                TokenFormat.hash(token), TokenFormat.display(token), "installation", clock.instant(), null, null));
        audit.record(AuditEvent.of(AuditKind.API_TOKEN, "create").org(null).by(Actor.of("installation", null))
                .target(row.id().toString()).details(Map.of("name", row.name())).build());
        return new Minted<>(row, token);
    }

    public List<ApiTokenRow> listApiTokens(UUID orgId) {
        return apiTokens.findByOrgIdOrderByCreatedAt(orgId);
    }

    public ApiTokenRow getApiToken(UUID id) {
        return apiTokens.findById(id).orElseThrow(() -> ApiProblem.notFound("API token `" + id + "`"));
    }

    @Transactional
    public void revokeApiToken(Identity caller, Grant grant, UUID id) {
        ApiTokenRow row = getApiToken(id);
        revoke(id, row.revokedAt(), row.tokenHash(), apiTokens::revoke);
        audit.record(AuditEvent.of(AuditKind.API_TOKEN, "revoke").by(caller).org(grant.orgId()).target(id.toString())
                .build());
    }

    @Transactional
    public Minted<SandboxTokenRow> createSandboxToken(Identity caller, Grant grant, String name, Instant expiresAt) {
        checkExpiry(expiresAt);
        String token = TokenFormat.SANDBOX.mint();
        SandboxTokenRow row = sandboxTokens.save(new SandboxTokenRow(UUID.randomUUID(), grant.projectId(), name.strip(),
                TokenFormat.hash(token), TokenFormat.display(token), caller.actorId(), clock.instant(), expiresAt, null));
        audit.record(AuditEvent.of(AuditKind.SANDBOX_TOKEN, "create").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(row.id().toString()).details(Map.of("name", row.name())).build());
        return new Minted<>(row, token);
    }

    public List<SandboxTokenRow> listSandboxTokens(UUID projectId) {
        return sandboxTokens.findByProjectIdOrderByCreatedAt(projectId);
    }

    @Transactional
    public void revokeSandboxToken(Identity caller, Grant grant, UUID id) {
        SandboxTokenRow row = sandboxTokens.findById(id).orElseThrow(() -> ApiProblem.notFound("sandbox token `" + id + "`"));
        revoke(id, row.revokedAt(), row.tokenHash(), sandboxTokens::revoke);
        audit.record(AuditEvent.of(AuditKind.SANDBOX_TOKEN, "revoke").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(id.toString()).build());
    }

    /** Revokes a sandbox token the platform minted for a sandbox, when that sandbox goes (no audit entry). */
    public void revokeSandboxTokenQuietly(UUID id) {
        sandboxTokens.findById(id).ifPresent(row -> revoke(id, row.revokedAt(), row.tokenHash(),
                sandboxTokens::revoke));
    }

    /**
     * Revokes a token of any kind: stamped now unless it already was (the first revocation's time stands), and
     * forgotten by the authenticator's cache either way, so it stops working at once on this replica.
     */
    private void revoke(UUID id, @Nullable Instant revokedAt, byte[] tokenHash, BiConsumer<UUID, Instant> stamp) {
        if (revokedAt == null) {
            stamp.accept(id, clock.instant());
        }
        authenticator.forget(tokenHash);
    }

    private void checkExpiry(Instant expiresAt) {
        if (expiresAt != null && !expiresAt.isAfter(clock.instant())) {
            throw ApiProblem.invalid("/expiresAt", "in-the-past", "`/expiresAt` must be in the future");
        }
    }

    /** A token for a separate egress proxy replica: it reads the proxy feed (every sandbox's sets) and nothing else. */
    @Transactional
    public Minted<ProxyTokenRow> createProxyToken(Identity caller, String name) {
        String token = TokenFormat.PROXY.mint();
        ProxyTokenRow row = proxyTokens.save(new ProxyTokenRow(UUID.randomUUID(), name.strip(), TokenFormat.hash(token),
                TokenFormat.display(token), caller.actorId(), clock.instant(), null));
        audit.record(AuditEvent.of(AuditKind.PROXY_TOKEN, "create").by(caller).org(null).target(row.id().toString())
                .details(Map.of("name", row.name())).build());
        return new Minted<>(row, token);
    }

    public List<ProxyTokenRow> listProxyTokens() {
        return proxyTokens.findAllOrderByCreatedAt();
    }

    @Transactional
    public void revokeProxyToken(Identity caller, UUID id) {
        ProxyTokenRow row = proxyTokens.findById(id).orElseThrow(() -> ApiProblem.notFound("proxy token `" + id + "`"));
        revoke(id, row.revokedAt(), row.tokenHash(), proxyTokens::revoke);
        audit.record(AuditEvent.of(AuditKind.PROXY_TOKEN, "revoke").by(caller).org(null).target(id.toString()).build());
        events.publish(Topic.PROXY_TOKEN, null, Map.of("revoked", id.toString())); // open feeds of it close, everywhere
    }
}
