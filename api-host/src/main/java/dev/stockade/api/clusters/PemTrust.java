package dev.stockade.api.clusters;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** TLS trust from PEM certificates: a cluster's CA, for the cluster proxy and for the relay. */
public final class PemTrust {
    private PemTrust() {
    }

    /** The X.509 certificates in {@code pem} (none for text without any). */
    public static Collection<? extends Certificate> certificates(String pem) throws CertificateException {
        return CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    /** A TLS context trusting exactly the certificates in {@code pem}. */
    public static SSLContext context(String pem) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int i = 0;
        for (Certificate c : certificates(pem)) {
            store.setCertificateEntry("ca-" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
