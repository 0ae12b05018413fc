package dev.stockade.proxy;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** The trust the proxy verifies origins against: the JVM's default roots plus an operator's extra PEM bundle. */
final class OriginTrust {
    private OriginTrust() {
    }

    /** A client TLS context (TLS 1.3 and 1.2) trusting the default roots and {@code extraTrust} when set. */
    static SslContext context(Path extraTrust) throws IOException {
        try {
            TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            defaults.init((KeyStore) null);
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (var tm : defaults.getTrustManagers()) {
                if (tm instanceof X509TrustManager x) {
                    for (X509Certificate c : x.getAcceptedIssuers()) {
                        ks.setCertificateEntry("system-" + i++, c);
                    }
                }
            }
            if (extraTrust != null) {
                try (InputStream in = Files.newInputStream(extraTrust)) {
                    for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                        ks.setCertificateEntry("extra-" + i++, c);
                    }
                }
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return SslContextBuilder.forClient().sslProvider(SslProvider.JDK).trustManager(tmf)
                    .protocols("TLSv1.3", "TLSv1.2").build();
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot build the origin trust store: " + e.getMessage(), e);
        }
    }
}
