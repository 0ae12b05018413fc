package dev.stockade.api.signin;

import dev.stockade.api.kernel.secrets.SecretBox;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * A browser sign-in under way: the {@code state} and PKCE verifier the platform, as the identity provider's client,
 * must remember between sending the browser away and its return. Kept in a cookie sealed by the installation's
 * {@link SecretBox}, so no server state is left behind by sign-ins never finished.
 *
 * @param state    the value the provider must send back
 * @param verifier the PKCE verifier (RFC 7636)
 * @param until    when the attempt is stale
 */
record PendingSignIn(String state, String verifier, Instant until) {
    static final String COOKIE = "stockade_signin";
    private static final String CONTEXT = "browser-sign-in";
    private static final SecureRandom RANDOM = new SecureRandom();

    static PendingSignIn start(Instant now) {
        return new PendingSignIn(random(), random(), now.plusSeconds(600));
    }

    String seal(SecretBox box) {
        return box.seal(state + " " + verifier + " " + until.getEpochSecond(), CONTEXT);
    }

    static Optional<PendingSignIn> open(SecretBox box, String sealed, Instant now) {
        if (sealed == null || sealed.isEmpty() || sealed.length() > 2000) {
            return Optional.empty();
        }
        try {
            String[] parts = box.open(sealed, CONTEXT).split(" ");
            PendingSignIn p = new PendingSignIn(parts[0], parts[1], Instant.ofEpochSecond(Long.parseLong(parts[2])));
            return p.until().isAfter(now) ? Optional.of(p) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty(); // not sealed by this installation, or tampered with
        }
    }

    private static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
