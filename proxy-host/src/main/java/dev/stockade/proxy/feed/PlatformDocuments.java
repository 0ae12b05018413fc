package dev.stockade.proxy.feed;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * Fetches a document a replica lacks from the platform it follows, {@code GET /v1/egress/documents/{sha256}} with the
 * proxy token (answer: {@code {"sha256","text"}}). A few quick tries ride out a platform restart; past them the document is missing and the sets listing
 * it deny everything until they are sent again.
 */
final class PlatformDocuments implements DocumentFetch {
    private static final int TRIES = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

    private final HttpClient http;
    private final String base;
    private final String token;

    /**
     * @param http  the client the feed uses
     * @param base  the platform's base URL, without a trailing slash
     * @param token the proxy token; never logged
     */
    PlatformDocuments(HttpClient http, String base, String token) {
        this.http = http;
        this.base = base;
        this.token = token;
    }

    /** The answer's {@code text}; empty for an answer that does not read (the caller then fails closed). */
    private static Optional<String> text(String body) {
        try {
            JsonNode text = FeedWire.parse(body).get("text");
            return text != null && text.isTextual() ? Optional.of(text.asText()) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<String> fetch(DocumentHash hash) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/egress/documents/" + hash.hex()))
                .header("Authorization", "Bearer " + token).timeout(TIMEOUT).GET().build();
        long pause = FIRST_PAUSE.toMillis();
        for (int i = 0; i < TRIES; i++) {
            try {
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                if (r.statusCode() == 200) {
                    return text(r.body());
                }
                if (r.statusCode() == 404 || r.statusCode() == 401 || r.statusCode() == 403) {
                    return Optional.empty(); // asking again would get the same answer
                }
            } catch (IOException e) {
                // the platform is restarting or unreachable: try again after a pause
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
            try {
                Thread.sleep(pause); // a retry's backoff, not a wait for an event
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
            pause *= 2;
        }
        return Optional.empty();
    }
}
