package dev.stockade.api.clusters;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.web.ApiProblem;
import dev.stockade.api.web.ProblemCode;
import dev.stockade.proxy.internal.DialGuard;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.SSLContext;

/**
 * Where the cluster proxy dials: checks an API server URL when it is written (shape, scheme, an address literal the
 * guard refuses) and again at every dial (the name's current addresses through {@link DialGuard}), and keeps one
 * HTTP client per trust configuration (the JVM's trust store, or a cluster's own CA certificates).
 */
@Singleton
public class ClusterTargets {
    private final ClusterSettings settings;
    private final DialGuard guard;
    private final Cache<String, HttpClient> clients = Caffeine.newBuilder().maximumSize(1_000)
            .expireAfterAccess(Duration.ofMinutes(30)).build();

    public ClusterTargets(ClusterSettings settings) {
        this.settings = settings;
        this.guard = settings.guard();
    }

    /** The normalised URL, or {@code null} for none; a 400 when it cannot be an API server URL. */
    String checkUrl(String raw) {
        if (raw == null) {
            return null;
        }
        URI u;
        try {
            u = new URI(raw.strip());
        } catch (URISyntaxException e) {
            throw ApiProblem.invalid("/apiServerUrl", "invalid-url", "`apiServerUrl` is not a URL");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(scheme.equals("http") && settings.allowPlainHttp())) {
            throw ApiProblem.invalid("/apiServerUrl", "scheme", "`apiServerUrl` must be an https URL"
                    + (scheme.equals("http") ? " (plain http is refused unless clusters.allowPlainHttp is set)" : ""));
        }
        if (u.getHost() == null || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw ApiProblem.invalid("/apiServerUrl", "invalid-url",
                    "`apiServerUrl` must be scheme://host[:port][/path] without credentials, query or fragment");
        }
        String host = u.getHost().startsWith("[") ? u.getHost().substring(1, u.getHost().length() - 1) : u.getHost();
        if (host.matches("[0-9.]+") || host.contains(":")) {
            DialGuard.Outcome outcome = guard.check(host);
            if (outcome instanceof DialGuard.Refused r) {
                throw ApiProblem.invalid("/apiServerUrl", "refused-address", "`apiServerUrl`: " + r.why());
            }
        }
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

    /** Refuses the dial (502 {@code cluster-unreachable}) when the API server's host resolves where it must not. */
    void checkDial(URI target) {
        String host = target.getHost().startsWith("[") ? target.getHost().substring(1, target.getHost().length() - 1)
                : target.getHost();
        if (guard.check(host) instanceof DialGuard.Refused r) {
            throw new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, "the cluster's API server is not dialed: " + r.why());
        }
    }

    /** The client for a cluster trusting {@code caPem} ({@code null}: the JVM's trust store). */
    HttpClient client(String caPem) {
        return clients.get(caPem == null ? "" : caPem, key -> {
            HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(settings.connectTimeout())
                    .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1);
            if (!key.isEmpty()) {
                b.sslContext(trusting(key));
            }
            return b.build();
        });
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
