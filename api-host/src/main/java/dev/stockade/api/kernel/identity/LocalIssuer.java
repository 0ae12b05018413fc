package dev.stockade.api.kernel.identity;

import com.nimbusds.jose.jwk.JWKSet;

/**
 * The embedded sign-in provider as the verifier sees it: its issuer and public keys. The sign-in feature implements
 * it, so the kernel verifies the provider's tokens without importing the feature.
 */
public interface LocalIssuer {
    /** The issuer its tokens carry: the platform's public URL. */
    String issuer();

    /** The public half of its signing keys. */
    JWKSet publicKeys();
}
