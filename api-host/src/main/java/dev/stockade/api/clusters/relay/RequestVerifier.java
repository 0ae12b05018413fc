package dev.stockade.api.clusters.relay;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.stockade.api.clusters.RelayHub;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * What the relay checks before it carries a request: the request JWT is ES256, signed by a key the project publishes
 * ({@code /v1/projects/{projectId}/.well-known/jwks.json}, fetched again for an unknown key id at most every ten
 * seconds), issued under {@code /projects/{projectId}}, for audience {@code stockade-cluster:<clusterId>}, not
 * expired, not seen before (its {@code jti}), and bound to exactly this method, path and body.
 */
final class RequestVerifier {
    /** Fetches the project's key set. */
    interface KeySource {
        JWKSet fetch() throws IOException, InterruptedException;
    }

    private final UUID clusterId;
    private final UUID projectId;
    private final KeySource source;
    private final Cache<String, Boolean> seen = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterWrite(Duration.ofMinutes(2)).build();
    private volatile JWKSet keys = new JWKSet();
    private volatile long fetchedAtNanos = System.nanoTime() - Duration.ofMinutes(1).toNanos();

    RequestVerifier(UUID clusterId, UUID projectId, KeySource source) {
        this.clusterId = clusterId;
        this.projectId = projectId;
        this.source = source;
    }

    /** Why the request must not be carried, or {@code null} when it may. */
    String refusal(RelayHub.Envelope e, byte[] body) {
        try {
            SignedJWT jwt = SignedJWT.parse(Objects.requireNonNullElse(e.token(), ""));
            if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm())) {
                return "the request token is not ES256";
            }
            JWK key = key(jwt.getHeader().getKeyID());
            if (!(key instanceof ECKey ec) || !jwt.verify(new ECDSAVerifier(ec))) {
                return "the request token is not signed by a key of the project";
            }
            JWTClaimsSet c = jwt.getJWTClaimsSet();
            if (c.getIssuer() == null || !c.getIssuer().endsWith("/projects/" + projectId)) {
                return "the request token is issued for another project";
            }
            if (c.getAudience() == null || !c.getAudience().contains("stockade-cluster:" + clusterId)) {
                return "the request token is for another cluster";
            }
            if (c.getExpirationTime() == null || !c.getExpirationTime().toInstant().isAfter(Instant.now())) {
                return "the request token has expired";
            }
            Map<String, Object> request = c.getJSONObjectClaim("request");
            if (request == null || !e.method().equals(request.get("method")) || !e.path().equals(request.get("path"))
                    || !sha256(body).equals(request.get("bodySha256"))) {
                return "the request does not match its token";
            }
            if (c.getJWTID() == null || seen.asMap().putIfAbsent(c.getJWTID(), Boolean.TRUE) != null) {
                return "the request token was used before";
            }
            return null;
        } catch (ParseException | JOSEException | IOException ex) {
            return "the request token cannot be read or verified";
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private JWK key(String kid) throws IOException, InterruptedException {
        JWK key = kid == null ? null : keys.getKeyByKeyId(kid);
        if (key == null && kid != null && System.nanoTime() - fetchedAtNanos > Duration.ofSeconds(10).toNanos()) {
            fetchedAtNanos = System.nanoTime(); // an unknown kid refetches, at most every ten seconds
            keys = source.fetch();
            key = keys.getKeyByKeyId(kid);
        }
        return key;
    }

    private static String sha256(byte[] body) {
        try {
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
