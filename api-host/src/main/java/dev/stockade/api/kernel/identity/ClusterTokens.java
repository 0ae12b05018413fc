package dev.stockade.api.kernel.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.secrets.SecretBox;
import jakarta.inject.Singleton;
import java.sql.Types;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Project signing keys and the cluster JWTs they sign (spec: Authentication, Limits: 15 minutes). Each project has one
 * active EC P-256 key; a rotated key stays published (and accepted) for one token lifetime, so tokens already issued
 * keep working until they expire.
 */
@Singleton
public final class ClusterTokens {
    public static final Duration LIFETIME = Duration.ofMinutes(15);
    public static final String AUDIENCE = "stockade-cluster";

    /** A verified cluster token. */
    public record Verified(Identity identity, Instant expiresAt) {
    }

    private record PublishedKey(UUID projectId, UUID orgId, ECKey publicKey) {
    }

    /** A project's active private key, ready to sign. */
    private record ActiveKey(String kid, ECDSASigner signer) {
    }

    private final Sql jdbc;
    private final SecretBox secrets;
    private final Clock clock;
    private final String issuerBase;
    private final Cache<String, Optional<PublishedKey>> keysByKid =
            Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(Duration.ofMinutes(1)).build();
    private final Cache<UUID, ActiveKey> activeKeys =
            Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(Duration.ofMinutes(1)).build();
    private final Cache<UUID, Optional<UUID>> orgByProject =
            Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(Duration.ofMinutes(1)).build();

    public ClusterTokens(Sql jdbc, SecretBox secrets, Clock clock, PlatformConfig config) {
        this.jdbc = jdbc;
        this.secrets = secrets;
        this.clock = clock;
        this.issuerBase = config.effectivePublicUrl();
    }

    /** Makes a new active key for {@code projectId}, retiring the previous one (on the caller's transaction). */
    public String rotate(UUID projectId) {
        try {
            String kid = "prj-" + UUID.randomUUID();
            ECKey key = new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
            jdbc.prepare("UPDATE project_keys SET retired_at = now() WHERE project_id = ? AND retired_at IS NULL",
                    ps -> {
                        ps.setObject(1, projectId, Types.OTHER);
                        return ps.executeUpdate();
                    });
            jdbc.prepare("INSERT INTO project_keys (kid, project_id, public_jwk, private_jwk) VALUES (?, ?, ?, ?)",
                    ps -> {
                        ps.setString(1, kid);
                        ps.setObject(2, projectId, Types.OTHER);
                        ps.setString(3, key.toPublicJWK().toJSONString());
                        ps.setString(4, secrets.seal(key.toJSONString(), "project-key:" + kid));
                        return ps.executeUpdate();
                    });
            activeKeys.invalidate(projectId);
            return kid;
        } catch (JOSEException e) {
            throw new IllegalStateException("could not generate a signing key", e);
        }
    }

    /** The public keys a relay should accept for {@code projectId}: the active one and those retired within a lifetime. */
    public List<ECKey> published(UUID projectId) {
        return jdbc.query("SELECT public_jwk FROM project_keys WHERE project_id = ?"
                + " AND (retired_at IS NULL OR retired_at > ?) ORDER BY created_at DESC",
                List.of(projectId, clock.instant().minus(LIFETIME)), rs -> parse(rs.getString(1)));
    }

    /** Issues a cluster JWT for a sandbox identity of {@code projectId}. */
    public String issue(UUID projectId, String subject) {
        Instant now = clock.instant();
        return sign(projectId, new JWTClaimsSet.Builder().audience(AUDIENCE).subject(subject).issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(LIFETIME))).jwtID(UUID.randomUUID().toString()));
    }

    /**
     * Signs {@code claims} with the project's active key, under the project's issuer: what the cluster proxy sends a
     * cluster's relay or API server, which verify it with {@code /projects/{projectId}/.well-known/jwks.json}.
     */
    public String sign(UUID projectId, JWTClaimsSet.Builder claims) {
        ActiveKey key = activeKeys.get(projectId, this::loadActiveKey);
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.kid()).build(),
                    claims.issuer(issuerBase + "/projects/" + projectId).build());
            jwt.sign(key.signer());
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("could not sign a cluster token", e);
        }
    }

    /** The project's active key, unsealed once: a rotation elsewhere is seen within a minute (the old key stays valid). */
    private ActiveKey loadActiveKey(UUID projectId) {
        String[] row = jdbc.first("SELECT kid, private_jwk FROM project_keys WHERE project_id = ?"
                + " AND retired_at IS NULL", List.of(projectId), rs -> new String[] {rs.getString(1), rs.getString(2)})
                .orElseThrow(() -> new IllegalStateException("project has no signing key"));
        try {
            return new ActiveKey(row[0], new ECDSASigner(parse(secrets.open(row[1], "project-key:" + row[0]))));
        } catch (JOSEException e) {
            throw new IllegalStateException("a stored signing key cannot sign", e);
        }
    }

    /** A cluster token's identity, or empty when {@code token} is not one of ours (it may still be an OIDC token). */
    public Optional<Verified> verify(String token, Instant now) {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            String kid = jwt.getHeader().getKeyID();
            if (kid == null || !kid.startsWith("prj-") || !JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm())) {
                return Optional.empty();
            }
            Optional<PublishedKey> key = keysByKid.get(kid, this::lookup);
            if (key.isEmpty() || !jwt.verify(new ECDSAVerifier(key.get().publicKey))) {
                return Optional.empty();
            }
            JWTClaimsSet c = jwt.getJWTClaimsSet();
            Instant exp = c.getExpirationTime() == null ? null : c.getExpirationTime().toInstant();
            if (exp == null || !exp.isAfter(now) || !c.getAudience().contains(AUDIENCE)
                    || !(issuerBase + "/projects/" + key.get().projectId).equals(c.getIssuer())) {
                return Optional.empty();
            }
            return Optional.of(new Verified(
                    new Identity.ClusterToken(c.getSubject(), key.get().projectId, key.get().orgId), exp));
        } catch (ParseException | JOSEException e) {
            return Optional.empty();
        }
    }

    /** The organization of {@code projectId}, cached briefly; empty when the project does not exist. */
    public Optional<UUID> orgOf(UUID projectId) {
        return orgByProject.get(projectId, id -> jdbc.first("SELECT org_id FROM projects WHERE id = ?", List.of(id),
                rs -> rs.getObject(1, UUID.class)));
    }

    public void forgetProject(UUID projectId) {
        orgByProject.invalidate(projectId);
        activeKeys.invalidate(projectId);
        keysByKid.invalidateAll();
    }

    private Optional<PublishedKey> lookup(String kid) {
        return jdbc.first("SELECT k.project_id, p.org_id, k.public_jwk FROM project_keys k JOIN projects p"
                + " ON p.id = k.project_id WHERE k.kid = ? AND (k.retired_at IS NULL OR k.retired_at > ?)",
                List.of(kid, clock.instant().minus(LIFETIME)), rs -> new PublishedKey(rs.getObject(1, UUID.class),
                        rs.getObject(2, UUID.class), parse(rs.getString(3))));
    }

    private static ECKey parse(String json) {
        try {
            return ECKey.parse(json);
        } catch (ParseException e) {
            throw new IllegalStateException("a stored signing key is not a valid JWK", e);
        }
    }
}
