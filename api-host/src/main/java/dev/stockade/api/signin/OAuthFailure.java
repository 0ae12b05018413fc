package dev.stockade.api.signin;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Introspected;

/**
 * An OAuth error (RFC 6749 section 5.2, RFC 7591 section 3.2.2): the token, registration and revocation endpoints
 * answer in OAuth's own format, because OAuth clients (the MCP SDK among them) read {@code error}, not problem details.
 */
final class OAuthFailure extends RuntimeException {
    /** The body of the answer. */
    @Introspected
    record Body(String error, @JsonProperty("error_description") String errorDescription) {
    }

    private final int status;
    private final Body body;
    private final long retryAfterSeconds;

    OAuthFailure(int status, String error, String description) {
        this(status, error, description, 0);
    }

    /** A refusal to try again later: {@code retryAfterSeconds} becomes the answer's {@code Retry-After}. */
    OAuthFailure(int status, String error, String description, long retryAfterSeconds) {
        super(error + ": " + description, null, false, false);
        this.status = status;
        this.body = new Body(error, description);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    static OAuthFailure invalidRequest(String description) {
        return new OAuthFailure(400, "invalid_request", description);
    }

    static OAuthFailure invalidGrant(String description) {
        return new OAuthFailure(400, "invalid_grant", description);
    }

    int status() {
        return status;
    }

    Body body() {
        return body;
    }
}
