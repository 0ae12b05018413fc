package dev.stockade.api.connectors;

import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import dev.stockade.api.kernel.net.ExchangeDeadlines;
import dev.stockade.api.kernel.net.GuardedClients;
import dev.stockade.api.kernel.net.GuardedResolver;
import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.proxy.dial.DialGuard;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

/**
 * Every outbound request to a connector (MCP upstreams, HTTP APIs, OpenAPI documents) goes through here: the
 * connector's host is resolved by the egress proxy's dial guard and the connection goes to the address it checked
 * ({@link GuardedResolver}), redirects are never followed, one deadline from the request's start bounds the whole
 * answer (headers and body), the body is cut at the size bound, and a {@link Cancellation} (a halt) aborts it.
 * Failures are {@link UpstreamException}s whose messages are safe to show (no header, no credential).
 */
@Singleton
public class GuardedHttp {
    private final ConnectorSettings settings;
    private final CloseableHttpClient http;
    private final ExchangeDeadlines deadlines = new ExchangeDeadlines("connector-deadlines");

    @Inject
    public GuardedHttp(ConnectorSettings settings) {
        this(settings, settings.guard());
    }

    GuardedHttp(ConnectorSettings settings, DialGuard guard) {
        this.settings = settings;
        // a read never waits past the call timeout; the call's deadline (below) bounds the whole answer
        this.http = OutboundClients.guarded(guard, settings.connectTimeout(), settings.callTimeout(), null);
    }

    /** An answer whose body is being read under the deadline and the bound; close it when done. */
    public record Opened(ClassicHttpResponse response, InputStream body, ScheduledFuture<?> deadline)
            implements AutoCloseable {
        public int status() {
            return response.getCode();
        }

        public String header(String name) {
            Header h = response.getFirstHeader(name);
            return h == null ? null : h.getValue();
        }

        /** Releases the answer: aborted unless its body was read to the end ({@link GuardedClients#body}). */
        @Override
        public void close() {
            deadline.cancel(false);
            quietly(body);
        }
    }

    ConnectorSettings settings() {
        return settings;
    }

    /** Sends the request (its host resolved by the dial guard) and returns once the answer's headers arrived. */
    public Opened open(HttpRequest request, Cancellation cancel) throws UpstreamException {
        checkHost(request.uri());
        HttpUriRequestBase out = new HttpUriRequestBase(request.method(), request.uri());
        request.headers().map().forEach((name, values) -> values.forEach(v -> out.addHeader(name, v)));
        byte[] body = request.bodyPublisher().map(GuardedHttp::bytes).orElse(null);
        if (body != null && body.length > 0) {
            out.setEntity(new ByteArrayEntity(body, null));
        }
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> deadline = deadlines.abortAfter(settings.callTimeout(), out, expired);
        cancel.onCancel(out::cancel);
        try {
            ClassicHttpResponse response = http.executeOpen(null, out, null);
            InputStream raw = GuardedClients.body(response, out);
            return new Opened(response, new Bounded(raw, settings.maxResponseBytes()), deadline);
        } catch (IOException e) {
            deadline.cancel(false);
            throw openFailure(e, expired.get(), cancel);
        }
    }

    private UpstreamException openFailure(IOException e, boolean expired, Cancellation cancel) {
        if (cancel.cancelled()) {
            return halted();
        }
        if (expired || e instanceof SocketTimeoutException) {
            return new UpstreamException("the upstream did not answer within " + settings.callTimeout().toSeconds()
                    + " s");
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof GuardedResolver.Refused r) {
                return new UpstreamException("the connector is not dialed: " + r.getMessage());
            }
        }
        return new UpstreamException("the upstream could not be reached (" + e.getClass().getSimpleName() + ")");
    }

    /** The request body as bytes (connector request bodies are small JSON documents). */
    private static byte[] bytes(HttpRequest.BodyPublisher publisher) {
        if (publisher.contentLength() == 0) {
            return null;
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        CompletableFuture<byte[]> done = new CompletableFuture<>();
        publisher.subscribe(new Flow.Subscriber<ByteBuffer>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer b) {
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                buffer.writeBytes(chunk);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onComplete() {
                done.complete(buffer.toByteArray());
            }
        });
        return done.join();
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
        return new UpstreamClient.Halted("the call was cancelled: the organization is halted");
    }

    private static void checkHost(URI url) throws UpstreamException {
        if (url.getHost() == null) {
            throw new UpstreamException("the connector URL names no host");
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
        deadlines.close();
        try {
            http.close();
        } catch (IOException ignored) {
            // stopping: open connections are dropped either way
        }
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
