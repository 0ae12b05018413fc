package dev.stockade.api.kernel.net;

import dev.stockade.proxy.dial.DialGuard;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * HTTP clients for dials the platform makes on a tenant's behalf (connectors, cluster API servers). Each resolves
 * names only through the egress proxy's {@link DialGuard} ({@link GuardedResolver}), never follows redirects, never
 * retries, keeps no cookies and leaves content encodings alone.
 */
public final class GuardedClients {
    private GuardedClients() {
    }

    /**
     * A pooled client. {@code readTimeout} bounds each read of an answer ({@link Duration#ZERO}: none, for streams
     * that may stay quiet, whose callers keep their own deadline); {@code tls} is the trust for https ({@code null}:
     * the JVM's), always with host name verification.
     */
    static CloseableHttpClient build(DialGuard guard, Duration connectTimeout, Duration readTimeout,
                                     SSLContext tls, int perRoute) {
        Timeout read = readTimeout.isZero() ? Timeout.DISABLED : Timeout.of(readTimeout);
        PoolingHttpClientConnectionManagerBuilder pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(new GuardedResolver(guard))
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout)).setSocketTimeout(read)
                        // a kept-alive connection the far end closed while idle is checked before reuse, never sent
                        // a request that would fail (nothing is retried)
                        .setValidateAfterInactivity(TimeValue.ofMilliseconds(100))
                        .setTimeToLive(TimeValue.ofMinutes(5)).build())
                .setMaxConnTotal(Math.max(256, perRoute)).setMaxConnPerRoute(perRoute);
        if (tls != null) {
            pool.setTlsSocketStrategy(new DefaultClientTlsStrategy(tls));
        }
        return HttpClients.custom().setConnectionManager(pool.build())
                .evictIdleConnections(TimeValue.ofSeconds(30)).evictExpiredConnections()
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(read).build())
                .disableRedirectHandling().disableAutomaticRetries().disableCookieManagement()
                .disableContentCompression().disableAuthCaching().build();
    }

    /**
     * The answer's body as a stream whose {@code close()} releases the answer: read to its end, the connection goes
     * back to the pool; otherwise the exchange is aborted and the connection dropped. (HttpClient itself reads an
     * unfinished body to its end on close, to reuse the connection: for a huge, never-ending or halted answer that
     * would hold the caller until the far end stops.)
     */
    public static InputStream body(ClassicHttpResponse response, Cancellable exchange) throws IOException {
        HttpEntity entity = response.getEntity();
        InputStream raw;
        try {
            raw = entity == null ? InputStream.nullInputStream() : entity.getContent();
        } catch (IOException | RuntimeException e) {
            exchange.cancel();
            response.close();
            throw e;
        }
        return new FilterInputStream(raw) {
            private volatile boolean ended;
            private boolean closed;

            @Override
            public int read() throws IOException {
                int b = super.read();
                ended |= b < 0;
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                ended |= n < 0;
                return n;
            }

            @Override
            public synchronized void close() throws IOException {
                if (closed) {
                    return;
                }
                closed = true;
                if (!ended) {
                    exchange.cancel();
                }
                try {
                    super.close();
                } catch (IOException aborted) {
                    // the exchange was aborted: the connection is gone either way
                } finally {
                    response.close();
                }
            }
        };
    }
}
