package dev.stockade.api.kernel.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a bearer token into an {@link Identity}. A verified token is trusted for {@code config.tokenCacheTtl} without
 * a database look-up (bounded cache of 100,000 tokens); a revocation made on this replica takes effect at once, one
 * made on another replica within that bound.
 */
@Singleton
public final class Authenticator {
    private final ApiTokenRepository apiTokens;
    private final SandboxTokenRepository sandboxTokens;
    private final ProxyTokenRepository proxyTokens;
    private final OidcVerifier oidc;
    private final ClusterTokens clusterTokens;
    private final Clock clock;
    private final Cache<ByteBuffer, Cached> cache;

    /** {@code audiences}: the resources an embedded provider's token is bound to; null when no binding applies. */
    private record Cached(Identity identity, Instant expiresAt, Set<String> audiences) {
        Cached(Identity identity, Instant expiresAt) {
            this(identity, expiresAt, null);
        }
    }

    private final PlatformConfig config;

    public Authenticator(PlatformConfig config, ApiTokenRepository apiTokens, SandboxTokenRepository sandboxTokens,
                         ProxyTokenRepository proxyTokens, OidcVerifier oidc, ClusterTokens clusterTokens, Clock clock) {
        this.config = config;
        this.apiTokens = apiTokens;
        this.sandboxTokens = sandboxTokens;
        this.proxyTokens = proxyTokens;
        this.oidc = oidc;
        this.clusterTokens = clusterTokens;
        this.clock = clock;
        this.cache = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(config.tokenCacheTtl()).build();
    }

    /** The identity behind {@code token} used on the REST API; see {@link #authenticate(String, ProtectedResource)}. */
    public Identity authenticate(String token) {
        return authenticate(token, ProtectedResource.rest(config));
    }

    /**
     * The identity behind {@code token} used on {@code resource}; an {@link ApiProblem} (401 or 403) when there is none
     * usable, including an embedded provider's token minted for another resource (RFC 8707 audience binding).
     */
    public Identity authenticate(String token, ProtectedResource resource) {
        ByteBuffer key = ByteBuffer.wrap(TokenFormat.hash(token));
        Instant now = clock.instant();
        Cached hit = cache.getIfPresent(key);
        if (hit == null || (hit.expiresAt != null && !hit.expiresAt.isAfter(now))) {
            hit = resolve(token, key.array(), now)
                    .orElseThrow(() -> new ApiProblem(ProblemCode.UNAUTHENTICATED, "the bearer token is not valid"));
            cache.put(key, hit);
        }
        if (hit.audiences != null && !hit.audiences.contains(resource.uri())) {
            throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "the bearer token was issued for another resource");
        }
        return hit.identity;
    }

    /** Forgets a token at once on this replica (revocation). */
    public void forget(byte[] tokenHash) {
        cache.invalidate(ByteBuffer.wrap(tokenHash));
    }

    private Optional<Cached> resolve(String token, byte[] hash, Instant now) {
        if (TokenFormat.API.matches(token)) {
            return apiTokens.findByTokenHash(hash).filter(t -> t.usableAt(now)).map(t -> new Cached(
                    t.owner() ? new Identity.Owner(t.id()) : new Identity.ApiToken(t.id(), t.orgId(), t.name()),
                    t.expiresAt()));
        }
        if (TokenFormat.SANDBOX.matches(token)) {
            return sandboxTokens.findByTokenHash(hash).filter(t -> t.usableAt(now)).flatMap(t -> clusterTokens
                    .orgOf(t.projectId())
                    .map(org -> new Cached(new Identity.SandboxToken(t.id(), t.projectId(), org), t.expiresAt())));
        }
        if (TokenFormat.PROXY.matches(token)) {
            return proxyTokens.findByTokenHash(hash).filter(t -> t.revokedAt() == null)
                    .map(t -> new Cached(new Identity.ProxyToken(t.id(), t.name()), null));
        }
        if (looksLikeJwt(token)) {
            Optional<ClusterTokens.Verified> cluster = clusterTokens.verify(token, now);
            if (cluster.isPresent()) {
                return cluster.map(v -> new Cached(v.identity(), v.expiresAt()));
            }
            return oidc.verify(token).map(v -> new Cached(v.identity(), v.expiresAt(), v.audiences()));
        }
        return Optional.empty();
    }

    private static boolean looksLikeJwt(String token) {
        int dots = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '.') {
                dots++;
            } else if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_') || c > 127) {
                return false;
            }
        }
        return dots == 2 && token.length() < 16_384;
    }
}
