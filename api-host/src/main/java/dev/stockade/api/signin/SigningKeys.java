package dev.stockade.api.signin;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.LocalIssuer;
import dev.stockade.api.kernel.secrets.SecretBox;
import jakarta.inject.Singleton;
import java.text.ParseException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The embedded provider's signing key: one P-256 key generated on first use and stored sealed by the installation's
 * {@link SecretBox} in the database, so tokens stay valid across restarts and replicas share the key.
 */
@Singleton
public final class SigningKeys implements LocalIssuer {
    private static final String PURPOSE = "access-tokens";

    private final Sql sql;
    private final SecretBox box;
    private final PlatformConfig config;
    private final AtomicReference<ECKey> key = new AtomicReference<>();

    SigningKeys(Sql sql, SecretBox box, PlatformConfig config) {
        this.sql = sql;
        this.box = box;
        this.config = config;
    }

    @Override
    public String issuer() {
        return config.effectivePublicUrl();
    }

    @Override
    public JWKSet publicKeys() {
        return new JWKSet(signingKey().toPublicJWK());
    }

    /** The private key tokens are signed with. */
    ECKey signingKey() {
        ECKey k = key.get();
        if (k == null) {
            key.compareAndSet(null, loadOrCreate());
            k = key.get();
        }
        return k;
    }

    private ECKey loadOrCreate() {
        try {
            ECKey fresh = new ECKeyGenerator(Curve.P_256).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.ES256)
                    .keyID(UUID.randomUUID().toString()).generate();
            // a replica that loses the race keeps the winner's key: the insert does nothing and the select reads it
            sql.update("INSERT INTO signin_keys (purpose, kid, sealed_jwk) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    List.of(PURPOSE, fresh.getKeyID(), box.seal(fresh.toJSONString(), context(fresh.getKeyID()))));
            return sql.first("SELECT kid, sealed_jwk FROM signin_keys WHERE purpose = ?", List.of(PURPOSE),
                    rs -> open(rs.getString(1), rs.getString(2))).orElseThrow();
        } catch (JOSEException e) {
            throw new IllegalStateException("the sign-in signing key could not be generated", e);
        }
    }

    private ECKey open(String kid, String sealed) {
        try {
            return ECKey.parse(box.open(sealed, context(kid)));
        } catch (ParseException e) {
            throw new IllegalStateException("the stored sign-in signing key is not a key");
        }
    }

    private static String context(String kid) {
        return "signin-key:" + kid;
    }
}
