package dev.stockade.api.kernel.identity;

import io.micronaut.core.annotation.Nullable;
import java.util.Optional;

/** Reads the token of an {@code Authorization: Bearer <token>} header (RFC 6750: the scheme is case-insensitive). */
public final class BearerToken {
    private static final String SCHEME = "Bearer ";

    private BearerToken() {
    }

    /** The token of the header, or empty when the header is absent, of another scheme, or has no token. */
    public static Optional<String> of(@Nullable String header) {
        if (header == null || header.length() <= SCHEME.length()
                || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        String token = header.substring(SCHEME.length()).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
}
