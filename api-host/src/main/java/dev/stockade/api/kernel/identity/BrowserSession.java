package dev.stockade.api.kernel.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;

/**
 * A person's browser session as the access gate sees it, so the admin UI's calls reach the REST API through the same
 * authentication, authorization table and audit as a bearer token. The sign-in feature implements it; the kernel only
 * asks who a session cookie belongs to.
 *
 * <p>A session authenticates a request only together with its CSRF token: another site can make the browser send the
 * cookie but can compute neither the token (a hash of the session's secret id) nor, for a WebSocket, a same-site
 * {@code Origin}.
 */
public interface BrowserSession {
    /** The cookie holding a session's random id. */
    String COOKIE = "stockade_session";
    /** The request header (or, on a WebSocket handshake, the query parameter {@code csrf}) carrying the token. */
    String CSRF_HEADER = "X-Stockade-CSRF";

    /** The person behind a live session, with the facts their sign-in proved; empty when expired or revoked. */
    Optional<Identity.User> user(String sessionId);

    /** The CSRF token of a session: derived from its secret id, so it needs no storage and works in every tab. */
    static String csrfToken(String sessionId) {
        byte[] digest = TokenFormat.hash("stockade-csrf\0" + sessionId);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    /** Whether {@code presented} is the session's CSRF token, compared in constant time. */
    static boolean csrfMatches(String sessionId, String presented) {
        if (sessionId == null || presented == null || presented.length() > 100) {
            return false;
        }
        return MessageDigest.isEqual(csrfToken(sessionId).getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8));
    }
}
