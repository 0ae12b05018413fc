package dev.stockade.api.signin;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.ProtectedResource;
import dev.stockade.api.kernel.identity.TokenFormat;
import io.micronaut.core.annotation.Introspected;
import jakarta.inject.Singleton;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What the embedded provider grants: one-time authorization codes bound to a client, redirect URI, PKCE challenge and
 * resource; access tokens (ES256 JWTs, RFC 9068, audience = the resource); refresh tokens that rotate on every use,
 * where reusing a rotated one revokes its whole family (OAuth 2.0 Security BCP, section 4.14).
 */
@Singleton
final class Grants {
    static final Duration CODE_TTL = Duration.ofMinutes(1);
    static final Duration ACCESS_TTL = Duration.ofMinutes(10);
    static final Duration REFRESH_TTL = Duration.ofDays(30);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The token endpoint's answer (RFC 6749 section 5.1). */
    @Introspected
    record Tokens(@JsonProperty("access_token") String accessToken, @JsonProperty("token_type") String tokenType,
                  @JsonProperty("expires_in") long expiresIn, @JsonProperty("refresh_token") String refreshToken) {
        @Override
        public String toString() {
            return "Tokens[(hidden)]";
        }
    }

    /** An approved authorization request, ready to be turned into a code. */
    record Approval(String clientId, Accounts.Account account, String redirectUri, String codeChallenge,
                    ProtectedResource resource) {
    }

    private record Grant(UUID family, String clientId, UUID accountId, String resource) {
    }

    private final Sql sql;
    private final SigningKeys keys;
    private final Accounts accounts;
    private final Clock clock;

    Grants(Sql sql, SigningKeys keys, Accounts accounts, Clock clock) {
        this.sql = sql;
        this.keys = keys;
        this.accounts = accounts;
        this.clock = clock;
    }

    /** A fresh one-time code for an approved request; only its hash is stored. */
    String code(Approval a) {
        String code = random();
        sql.update("INSERT INTO signin_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, resource,"
                + " expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)", List.of(TokenFormat.hash(code), a.clientId(),
                a.account().id(), a.redirectUri(), a.codeChallenge(), a.resource().uri(),
                Timestamp.from(clock.instant().plus(CODE_TTL))));
        return code;
    }

    /**
     * Redeems a code once (authorization_code grant): same client, same redirect URI, the PKCE verifier. The code is
     * used up by the first attempt, right or wrong, in its own statement, so a failed guess cannot be retried.
     */
    Tokens redeem(String code, String clientId, String redirectUri, String verifier) {
        if (code == null || clientId == null || redirectUri == null || verifier == null) {
            throw OAuthFailure.invalidRequest("code, client_id, redirect_uri and code_verifier are required");
        }
        record Code(String clientId, UUID accountId, String redirectUri, String challenge, String resource) {
        }
        Code c = sql.first("UPDATE signin_codes SET used_at = now() WHERE code_hash = ? AND used_at IS NULL"
                        + " AND expires_at > ? RETURNING client_id, account_id, redirect_uri, code_challenge, resource",
                List.of(TokenFormat.hash(code), Timestamp.from(clock.instant())),
                rs -> new Code(rs.getString(1), rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4),
                        rs.getString(5)))
                .orElseThrow(() -> OAuthFailure.invalidGrant("the code is unknown, used or expired"));
        if (!c.clientId().equals(clientId) || !c.redirectUri().equals(redirectUri)) {
            throw OAuthFailure.invalidGrant("the code was issued to another client or redirect URI");
        }
        if (!pkceMatches(c.challenge(), verifier)) {
            throw OAuthFailure.invalidGrant("the code_verifier does not match the code_challenge");
        }
        return issue(new Grant(UUID.randomUUID(), clientId, c.accountId(), c.resource()));
    }

    /**
     * Rotates a refresh token: the old one stops working; a second use of it revokes every token of its family. Each
     * statement commits alone, so the revocation stands although the request fails.
     */
    Tokens refresh(String refreshToken, String clientId) {
        if (refreshToken == null || clientId == null) {
            throw OAuthFailure.invalidRequest("refresh_token and client_id are required");
        }
        byte[] hash = TokenFormat.hash(refreshToken);
        Optional<Grant> live = sql.first("UPDATE signin_refresh_tokens SET rotated_at = now() WHERE token_hash = ?"
                        + " AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > ?"
                        + " RETURNING family, client_id, account_id, resource",
                List.of(hash, Timestamp.from(clock.instant())), Grants::grant);
        if (live.isEmpty()) {
            // a rotated token presented again was stolen or replayed: end its family (RFC 9700 section 4.14.2)
            sql.update("UPDATE signin_refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND family ="
                    + " (SELECT family FROM signin_refresh_tokens WHERE token_hash = ? AND rotated_at IS NOT NULL)",
                    List.of(hash));
            throw OAuthFailure.invalidGrant("the refresh token is unknown, used, revoked or expired");
        }
        if (!live.get().clientId().equals(clientId)) {
            throw OAuthFailure.invalidGrant("the refresh token was issued to another client");
        }
        return issue(live.get());
    }

    /** RFC 7009: ends the refresh token's family; an unknown token is not an error. */
    void revoke(String token) {
        if (token == null || token.isEmpty() || token.length() > 512) {
            return;
        }
        sql.update("UPDATE signin_refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND family ="
                + " (SELECT family FROM signin_refresh_tokens WHERE token_hash = ?)", List.of(TokenFormat.hash(token)));
    }

    private Tokens issue(Grant g) {
        Accounts.Account account = accounts.find(g.accountId())
                .orElseThrow(() -> OAuthFailure.invalidGrant("the account no longer exists"));
        Instant now = clock.instant();
        String refresh = random();
        sql.update("INSERT INTO signin_refresh_tokens (token_hash, family, client_id, account_id, resource, expires_at)"
                + " VALUES (?, ?, ?, ?, ?, ?)", List.of(TokenFormat.hash(refresh), g.family(), g.clientId(),
                g.accountId(), g.resource(), Timestamp.from(now.plus(REFRESH_TTL))));
        return new Tokens(accessToken(account, g, now), "Bearer", ACCESS_TTL.toSeconds(), refresh);
    }

    private String accessToken(Accounts.Account account, Grant g, Instant now) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(keys.issuer()).subject(account.id().toString())
                .audience(g.resource()).issueTime(Date.from(now)).expirationTime(Date.from(now.plus(ACCESS_TTL)))
                .jwtID(UUID.randomUUID().toString()).claim("client_id", g.clientId())
                .claim("email", account.email()).claim("email_verified", true).claim("name", account.name())
                .build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256)
                    .type(new JOSEObjectType("at+jwt")).keyID(keys.signingKey().getKeyID()).build(), claims);
            jwt.sign(new ECDSASigner(keys.signingKey()));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("signing an access token failed", e);
        }
    }

    static boolean pkceMatches(String challenge, String verifier) {
        try {
            String computed = CodeChallenge.compute(CodeChallengeMethod.S256, new CodeVerifier(verifier)).getValue();
            return MessageDigest.isEqual(computed.getBytes(), challenge.getBytes());
        } catch (IllegalArgumentException e) {
            return false; // a verifier of the wrong length or alphabet (RFC 7636 section 4.1)
        }
    }

    private static Grant grant(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Grant(rs.getObject(1, UUID.class), rs.getString(2), rs.getObject(3, UUID.class), rs.getString(4));
    }

    private static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
