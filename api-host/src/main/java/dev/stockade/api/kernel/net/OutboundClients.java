package dev.stockade.api.kernel.net;

import dev.stockade.proxy.dial.DialGuard;
import java.net.http.HttpClient;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The platform's one factory of outbound HTTP clients, in two flavours that say whom a dial trusts. An architecture
 * test keeps every other class from building a client of its own.
 * <ul>
 *   <li>{@link #guarded}: for anything a user names (a connector's URL, its OAuth metadata, a cluster's API server):
 *   names resolve only through the dial guard, no redirect, no retry, no cookie.</li>
 *   <li>{@link #trusted}: for the installation's own configured services (the identity provider, the enrollment hub,
 *   OAuth applications an operator configured, a sandbox's port on this host, the platform as the cluster relay
 *   sees it): never for a URL a tenant supplied. No redirect either.</li>
 * </ul>
 */
public final class OutboundClients {
    private OutboundClients() {
    }

    /**
     * A pooled client through the dial guard. {@code readTimeout} bounds each read ({@link Duration#ZERO}: none, for
     * streams whose callers keep their own deadline); {@code tls} is the trust for https ({@code null}: the JVM's).
     */
    public static CloseableHttpClient guarded(DialGuard guard, Duration connectTimeout, Duration readTimeout,
                                              SSLContext tls) {
        return GuardedClients.build(guard, connectTimeout, readTimeout, tls, 32);
    }

    /** As {@link #guarded}, holding up to {@code perRoute} connections to one host (long-lived streams each hold one). */
    public static CloseableHttpClient guarded(DialGuard guard, Duration connectTimeout, Duration readTimeout,
                                              SSLContext tls, int perRoute) {
        return GuardedClients.build(guard, connectTimeout, readTimeout, tls, perRoute);
    }

    /** A client for the installation's own configured services. */
    public static HttpClient trusted(Duration connectTimeout) {
        return trustedBuilder(connectTimeout).build();
    }

    /** As {@link #trusted}, for a caller that adds its own trust or protocol version. */
    public static HttpClient.Builder trustedBuilder(Duration connectTimeout) {
        return HttpClient.newBuilder().connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER);
    }
}
