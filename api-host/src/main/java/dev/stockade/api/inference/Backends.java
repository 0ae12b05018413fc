package dev.stockade.api.inference;

import dev.stockade.api.kernel.config.InferenceConfig;
import dev.stockade.api.kernel.net.GuardedResolver;
import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.inference.WireLimits;
import dev.stockade.proxy.dial.DialGuard;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The proxy's one client to the backends: every dial through the egress proxy's SSRF guard (backends are
 * configured by the operator, but a guard that also holds for them costs nothing and stops a misconfigured URL from
 * reaching the platform's own listeners), no redirect, no retry (an SDK retries itself; a retry here would bill a
 * call twice), and a pool sized for many concurrent streams.
 */
@Singleton
final class Backends {
    private final CloseableHttpClient client;
    private final GuardedResolver resolver;
    private final WireLimits limits = WireLimits.DEFAULT;

    Backends(InferenceConfig config) {
        DialGuard guard = new DialGuard(config.allowLoopbackUnsafe(), config.allowPrivateRanges(),
                config.privateHosts(), List.of(), Map.of());
        this.client = OutboundClients.guarded(guard, Duration.ofSeconds(10), config.readTimeout(), null,
                config.maxConnections());
        this.resolver = new GuardedResolver(guard);
    }

    /** The one address of {@code host} the guard lets a socket dial (a realtime session's backend). */
    InetAddress resolve(String host) throws UnknownHostException {
        return resolver.resolve(host)[0];
    }

    CloseableHttpClient client() {
        return client;
    }

    WireLimits limits() {
        return limits;
    }

    @PreDestroy
    void close() throws IOException {
        client.close();
    }
}
