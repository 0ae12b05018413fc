package dev.stockade.runtime.provider;

import dev.stockade.runtime.observe.Log;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Sends provider requests with retries: 429 and 5xx answers and connection failures before any answer
 * are retried with exponential backoff and jitter (honouring a short Retry-After); other statuses fail
 * at once. A stream is never retried once its body started: its events may already have been delivered.
 */
public final class ProviderHttp {
    private final HttpClient client;
    private final int maxAttempts;
    private final long baseDelayMillis;

    /**
     * @param maxAttempts total attempts including the first
     * @param baseDelayMillis the first backoff; doubled per attempt
     */
    public ProviderHttp(int maxAttempts, long baseDelayMillis) {
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .version(HttpClient.Version.HTTP_1_1).build();
        this.maxAttempts = maxAttempts;
        this.baseDelayMillis = baseDelayMillis;
    }

    /** POSTs {@code body} to {@code url} and returns the 2xx response's body stream. */
    public InputStream post(String what, String url, Map<String, String> headers, byte[] body)
            throws ProviderException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("content-type", "application/json");
        headers.forEach(b::header);
        HttpRequest req = b.build();
        for (int attempt = 1; ; attempt++) {
            HttpResponse<InputStream> res;
            try {
                res = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                if (attempt >= maxAttempts) {
                    throw new ProviderException(what + ": could not reach the provider after " + attempt
                            + " attempts (" + e.getClass().getSimpleName() + ")", 0, true);
                }
                backoff(what, attempt, 0, null);
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProviderException(what + ": interrupted", 0, false);
            }
            int status = res.statusCode();
            if (status >= 200 && status < 300) {
                return res.body();
            }
            drain(res.body());
            boolean retryable = status == 429 || status >= 500;
            if (!retryable || attempt >= maxAttempts) {
                throw new ProviderException(what + ": the provider answered HTTP " + status
                        + (retryable ? " after " + attempt + " attempts" : ""), status, retryable);
            }
            backoff(what, attempt, status, res.headers().firstValue("retry-after").orElse(null));
        }
    }

    private void backoff(String what, int attempt, int status, String retryAfter) throws ProviderException {
        long delay = baseDelayMillis << (attempt - 1);
        delay += ThreadLocalRandom.current().nextLong(baseDelayMillis / 2 + 1);
        if (retryAfter != null && retryAfter.matches("\\d{1,3}")) {
            delay = Math.max(delay, Math.min(30_000L, Long.parseLong(retryAfter) * 1000));
        }
        Log.warn("provider.retry", "call", what, "attempt", attempt, "status", status, "delay_ms", delay);
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProviderException(what + ": interrupted", 0, false);
        }
    }

    private static void drain(InputStream in) {
        try (in) {
            in.readNBytes(64 * 1024);
        } catch (IOException e) {
            // the error status is what matters
        }
    }
}
