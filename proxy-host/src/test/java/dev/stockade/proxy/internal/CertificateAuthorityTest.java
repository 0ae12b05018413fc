package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityTest {

    @Test
    void aRestartLoadsTheSameCaAndStillMints(@TempDir Path dir) throws Exception {
        CertificateAuthority first = CertificateAuthority.loadOrCreate(dir, 8);
        CertificateAuthority second = CertificateAuthority.loadOrCreate(dir, 8);
        assertThat(second.certificate()).isEqualTo(first.certificate());
        // The restarted CA mints a leaf that a client trusting the FIRST run's certificate accepts for the host.
        assertThat(handshake(second, first.certificate(), "api.example.com")).isEqualTo("api.example.com");
        assertThat(Files.readString(dir.resolve("ca-key.pem"))).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca-key.pem"))))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    }

    @Test
    void aLeafForOneHostIsRefusedForAnother(@TempDir Path dir) throws Exception {
        CertificateAuthority ca = CertificateAuthority.loadOrCreate(dir, 8);
        assertThatThrownBy(() -> handshake(ca, ca.certificate(), "api.example.com", "evil.example.com"))
                .isInstanceOf(SSLHandshakeException.class);
    }

    private static String handshake(CertificateAuthority ca, X509Certificate trusted, String host) throws Exception {
        return handshake(ca, trusted, host, host);
    }

    /**
     * A TLS handshake in memory: the proxy's server side for {@code mintedFor}, a JDK client that trusts
     * only {@code trusted} and checks the certificate names {@code expected} (HTTPS endpoint identification).
     * Returns the subject alternative name the client verified.
     */
    private static String handshake(CertificateAuthority ca, X509Certificate trusted, String mintedFor,
            String expected) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        store.setCertificateEntry("ca", trusted);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext clientContext = SSLContext.getInstance("TLS");
        clientContext.init(null, tmf.getTrustManagers(), null);
        SSLEngine client = clientContext.createSSLEngine(expected, 443);
        client.setUseClientMode(true);
        SSLParameters parameters = client.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        client.setSSLParameters(parameters);
        SSLEngine server = ca.serverContext(mintedFor).newEngine(ByteBufAllocator.DEFAULT);
        client.beginHandshake();
        server.beginHandshake();
        ByteBuffer toServer = ByteBuffer.allocate(1 << 17);
        ByteBuffer toClient = ByteBuffer.allocate(1 << 17);
        ByteBuffer sink = ByteBuffer.allocate(1 << 17);
        for (int round = 0; round < 50 && !(done(client) && done(server)); round++) {
            step(client, toClient, toServer, sink);
            step(server, toServer, toClient, sink);
        }
        assertThat(done(client) && done(server)).as("handshake finished").isTrue();
        X509Certificate leaf = (X509Certificate) client.getSession().getPeerCertificates()[0];
        return (String) leaf.getSubjectAlternativeNames().iterator().next().get(1);
    }

    private static boolean done(SSLEngine engine) {
        SSLEngineResult.HandshakeStatus s = engine.getHandshakeStatus();
        return s == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING || s == SSLEngineResult.HandshakeStatus.FINISHED;
    }

    /** Feeds {@code in} to {@code engine}, runs its tasks, and lets it write into {@code out}. */
    private static void step(SSLEngine engine, ByteBuffer in, ByteBuffer out, ByteBuffer sink) throws Exception {
        in.flip();
        engine.unwrap(in, sink);
        in.compact();
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
        sink.clear();
        engine.wrap(ByteBuffer.allocate(0), out);
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    @Test
    void leavesAreCachedWithinTheBound(@TempDir Path dir) throws Exception {
        CertificateAuthority ca = CertificateAuthority.loadOrCreate(dir, 2);
        assertThat(ca.serverContext("a.example")).isSameAs(ca.serverContext("a.example"));
        for (int i = 0; i < 10; i++) {
            ca.serverContext("h" + i + ".example");
        }
        assertThat(ca.cachedLeaves()).isLessThanOrEqualTo(2);
    }
}
