package dev.stockade.api.signin;

import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * CSRF protection of the sign-in forms by double submission: each form carries a random token that must equal the
 * one in a {@code SameSite=Strict}, {@code HttpOnly} cookie, which another site can neither read nor make the browser
 * send with a cross-site post.
 */
final class Csrf {
    static final String COOKIE = "stockade_csrf";
    static final String FIELD = "csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Csrf() {
    }

    static String fresh() {
        byte[] b = new byte[24];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static Cookie cookie(String token, boolean secure) {
        return Cookie.of(COOKIE, token).path("/").httpOnly(true).sameSite(SameSite.Strict).secure(secure);
    }

    /** Whether the form's token equals the cookie's, compared in constant time. */
    static boolean matches(String cookie, String field) {
        if (cookie == null || field == null || cookie.length() < 16) {
            return false;
        }
        return MessageDigest.isEqual(cookie.getBytes(StandardCharsets.UTF_8), field.getBytes(StandardCharsets.UTF_8));
    }
}
