package dev.stockade.api.connectors;

import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import dev.stockade.proxy.internal.DialGuard;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Every outbound request to a connector (MCP upstreams, HTTP APIs, OpenAPI documents) goes through here: the
 * connector's host passes the egress proxy's dial guard before each request, redirects are never followed, the
 * answer's headers must arrive within the call timeout and its body is cut at the same deadline and at the size
 * bound, and a {@link Cancellation} (a halt) aborts both. Failures are {@link UpstreamException}s whose messages are
 * safe to show (no header, no credential).
 */
@Singleton
public class GuardedHttp {
    private final ConnectorSettings settings;
    private final DialGuard guard;
    private final HttpClient http;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "connector-deadlines");
        t.setDaemon(true);
        return t;
    });

    public GuardedHttp(ConnectorSettings settings) {
        this.settings = settings;
        this.guard = settings.guard();
        this.http = HttpClient.newBuilder().connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** An answer whose body is being read under the deadline and the bound; close it when done. */
    public record Opened(HttpResponse<InputStream> response, InputStream body, ScheduledFuture<?> deadline)
            implements AutoCloseable {
        public int status() {
            return response.statusCode();
        }

        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        @Override
        public void close() {
            deadline.cancel(false);
            quietly(body);
        }
    }

    ConnectorSettings settings() {
        return settings;
    }

    /** Sends the request (after the dial guard) and returns once the answer's headers arrived. */
    public Opened open(HttpRequest request, Cancellation cancel) throws UpstreamException {
        checkDial(request.uri());
        var pending = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
        cancel.onCancel(() -> pending.cancel(true));
        HttpResponse<InputStream> response;
        try {
            response = pending.get(settings.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new UpstreamException("the upstream did not answer within " + settings.callTimeout().toSeconds()
                    + " s");
        } catch (CancellationException e) {
            throw halted();
        } catch (ExecutionException e) {
            throw cancel.cancelled() ? halted() : new UpstreamException("the upstream could not be reached ("
                    + e.getCause().getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamException("the call was interrupted");
        }
        InputStream body = new Bounded(response.body(), settings.maxResponseBytes());
        ScheduledFuture<?> deadline = deadlines.schedule(() -> quietly(body), settings.callTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        cancel.onCancel(() -> quietly(body));
        return new Opened(response, body, deadline);
    }

    /** GETs a document (an OpenAPI description) under the same guard and bounds; a status other than 200 fails. */
    public String fetch(URI url) throws UpstreamException {
        HttpRequest get = HttpRequest.newBuilder(url).timeout(settings.callTimeout())
                .header("Accept", "application/json, application/yaml, text/yaml, */*;q=0.5").GET().build();
        Cancellation none = Cancellation.none();
        try (Opened answer = open(get, none)) {
            if (answer.status() != 200) {
                throw new UpstreamException("HTTP " + answer.status() + " for the document");
            }
            return new String(answer.body().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw readFailure(e, none);
        }
    }

    /** Why reading an answer failed, as a caller should read it. */
    UpstreamException readFailure(IOException e, Cancellation cancel) {
        if (cancel.cancelled()) {
            return halted();
        }
        return e instanceof Bounded.TooLarge ? new UpstreamException("the upstream's answer is over "
                + settings.maxResponseBytes() + " bytes") : new UpstreamException("the upstream's answer broke off or"
                + " took longer than " + settings.callTimeout().toSeconds() + " s");
    }

    static UpstreamException halted() {
        return new UpstreamException("the call was cancelled: the organization is halted");
    }

    void checkDial(URI url) throws UpstreamException {
        String host = url.getHost();
        if (host == null) {
            throw new UpstreamException("the connector URL names no host");
        }
        host = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (guard.check(host) instanceof DialGuard.Refused r) {
            throw new UpstreamException("the connector is not dialed: " + r.why());
        }
    }

    private static void quietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // closing is how a deadline or a halt interrupts a read; a failure to close changes nothing
        }
    }

    @PreDestroy
    void shutdown() {
        deadlines.shutdownNow();
    }

    /** Counts what is read and fails past the bound. */
    static final class Bounded extends FilterInputStream {
        static final class TooLarge extends IOException {
        }

        private final long max;
        private long read;

        Bounded(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0 && ++read > max) {
                throw new TooLarge();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0 && (read += n) > max) {
                throw new TooLarge();
            }
            return n;
        }
    }
}
