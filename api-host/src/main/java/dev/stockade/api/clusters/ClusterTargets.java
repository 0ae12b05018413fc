package dev.stockade.api.clusters;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.stockade.api.kernel.net.EndpointUrls;
import dev.stockade.api.kernel.net.ExchangeDeadlines;
import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.proxy.dial.DialGuard;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.io.CloseMode;

/**
 * Where the cluster proxy dials: checks an API server URL when it is written (shape, scheme, an address literal the
 * guard refuses) and again at every dial: the client resolves names only through the {@link DialGuard} and connects to
 * the address it checked, so a DNS answer cannot change in between. Keeps one HTTP client per trust configuration
 * (the JVM's trust store, or a cluster's own CA certificates).
 */
@Singleton
public class ClusterTargets {
    private final ClusterSettings settings;
    private final DialGuard guard;
    private final Cache<String, CloseableHttpClient> clients = Caffeine.newBuilder().maximumSize(1_000)
            .expireAfterAccess(Duration.ofMinutes(30))
            .removalListener((String key, CloseableHttpClient client, RemovalCause cause) -> {
                if (client != null) {
                    client.close(CloseMode.GRACEFUL);
                }
            }).build();
    private final ExchangeDeadlines deadlines = new ExchangeDeadlines("cluster-deadlines");

    @Inject
    public ClusterTargets(ClusterSettings settings) {
        this(settings, settings.guard());
    }

    ClusterTargets(ClusterSettings settings, DialGuard guard) {
        this.settings = settings;
        this.guard = guard;
    }

    /** The normalised URL, or {@code null} for none; a 400 when it cannot be an API server URL. */
    String checkUrl(String raw) {
        if (raw == null) {
            return null;
        }
        URI u = EndpointUrls.check(raw, "apiServerUrl", "clusters.allowPlainHttp", settings.allowPlainHttp(), true,
                guard);
        return u.toString().replaceAll("/+$", "");
    }

    /** The PEM text when it holds at least one X.509 certificate, else a 400; {@code null} for none. */
    String checkCertificates(String pem) {
        if (pem == null) {
            return null;
        }
        try {
            if (PemTrust.certificates(pem).isEmpty()) {
                throw new CertificateException("no certificate");
            }
            return pem;
        } catch (CertificateException e) {
            throw ApiProblem.invalid("/caCertificate", "invalid-certificate",
                    "`caCertificate` must hold one or more PEM-encoded X.509 certificates");
        }
    }

    /** The client for a cluster trusting {@code caPem} ({@code null}: the JVM's trust store). */
    CloseableHttpClient client(String caPem) {
        // reads have no timeout: a watch may stay quiet for minutes; the proxy bounds the wait for the headers
        return clients.get(caPem == null ? "" : caPem, key -> OutboundClients.guarded(guard, settings.connectTimeout(),
                Duration.ZERO, key.isEmpty() ? null : trusting(key)));
    }

    /** Aborts {@code exchange} unless it is disarmed (its headers arrived) within the response timeout. */
    ScheduledFuture<?> headersDeadline(Cancellable exchange, AtomicBoolean expired) {
        return deadlines.abortAfter(settings.responseTimeout(), exchange, expired);
    }

    @PreDestroy
    void shutdown() {
        deadlines.close();
        clients.invalidateAll();
        clients.cleanUp();
    }

    /** The guard every dial of an API server passes (the upgraded streams' dials too). */
    DialGuard guard() {
        return guard;
    }

    /** The TLS context for a cluster trusting {@code caPem} ({@code null}: the JVM's trust store). */
    SSLContext tls(String caPem) {
        try {
            return caPem == null ? SSLContext.getDefault() : trusting(caPem);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no default TLS context", e);
        }
    }

    ClusterSettings settings() {
        return settings;
    }

    private static SSLContext trusting(String pem) {
        try {
            return PemTrust.context(pem);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("a stored cluster CA certificate cannot be used", e);
        }
    }
}
