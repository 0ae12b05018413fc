package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.stockade.api.kernel.net.GuardedResolver;
import dev.stockade.proxy.dial.DialGuard;
import dev.stockade.proxy.internal.CertificateAuthority;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The cluster proxy's client: names resolve only through the dial guard (the address checked is the address dialed,
 * so DNS rebinding has no second lookup to change), and TLS verifies the API server's certificate against the
 * cluster's own CA and the name in the URL, not the address. {@code cluster.test} resolves only through the guard's
 * table; the system resolver does not know it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterTargetsTest {
    private HttpsServer server;
    private String caPem;
    private String otherCaPem;
    private final AtomicInteger hits = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        KeyPair caKeys = CertificateAuthority.ecKeyPair();
        X509Certificate ca = CertificateAuthority.selfSignedCa(caKeys, "cluster test CA");
        caPem = CertificateAuthority.pem(ca);
        otherCaPem = CertificateAuthority.pem(CertificateAuthority.selfSignedCa(CertificateAuthority.ecKeyPair(),
                "another CA"));
        KeyPair leafKeys = CertificateAuthority.ecKeyPair();
        X509Certificate leaf = CertificateAuthority.leaf("cluster.test", leafKeys, ca, caKeys.getPrivate());
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("leaf", leafKeys.getPrivate(), new char[0], new Certificate[] {leaf, ca});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, new char[0]);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/version", ex -> {
            hits.incrementAndGet();
            byte[] b = "{\"major\":\"1\"}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
    }

    @AfterAll
    void stop() {
        server.stop(0);
    }

    private static ClusterTargets targets(boolean loopbackAllowed, Map<String, String> names) {
        // the defaults (10 s, 60 s): nothing here tests a timeout, and a loaded machine's first handshake is slow
        ClusterSettings s = new ClusterSettings(loopbackAllowed, false, List.of(), false, Duration.ofSeconds(10),
                Duration.ofSeconds(60));
        return new ClusterTargets(s, new DialGuard(loopbackAllowed, false, List.of(), List.of(), names));
    }

    private String get(ClusterTargets targets, String host, String pem) throws IOException {
        HttpGet get = new HttpGet("https://" + host + ":" + server.getAddress().getPort() + "/version");
        return targets.client(pem).execute(get, r -> r.getCode() + " " + EntityUtils.toString(r.getEntity()));
    }

    @Test
    void theApiServerIsDialedAtTheGuardsAddressAndVerifiedByItsOwnCaAndName() throws Exception {
        ClusterTargets t = targets(true, Map.of("cluster.test", "127.0.0.1", "alias.test", "127.0.0.1"));
        assertThat(get(t, "cluster.test", caPem)).isEqualTo("200 {\"major\":\"1\"}");
        // another CA, the JVM's roots, or a name the certificate does not carry: the handshake fails
        assertThatThrownBy(() -> get(t, "cluster.test", otherCaPem)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> get(t, "cluster.test", null)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> get(t, "alias.test", caPem)).isInstanceOf(IOException.class);
        assertThat(hits).hasValue(1);
    }

    @Test
    void aNameTheGuardResolvesToARefusedAddressIsNeverDialed() {
        int before = hits.get();
        ClusterTargets t = targets(false, Map.of("cluster.test", "127.0.0.1", "metadata.test", "169.254.169.254"));
        for (String host : List.of("cluster.test", "metadata.test")) {
            assertThatThrownBy(() -> get(t, host, caPem)).as(host).isInstanceOf(GuardedResolver.Refused.class);
        }
        assertThat(hits).hasValue(before);
    }
}
