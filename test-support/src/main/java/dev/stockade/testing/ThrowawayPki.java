package dev.stockade.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority that lives as long as one test's control plane: openssl (on every Debian machine) makes a
 * P-256 CA and the leaf certificates a kube-apiserver and its kubelets need, in a folder that is deleted with the
 * test. Nothing here is a real secret; the keys never leave the folder but through {@link #sslContext}.
 */
public final class ThrowawayPki {
    /** A key and its certificate, as PEM files. */
    public record Issued(Path certificate, Path key) {
    }

    /** Whether a leaf certificate is for a server (TLS serving) or a client (TLS client authentication). */
    public enum Use { SERVER, CLIENT }

    private final Path folder;
    private final Path caCertificate;
    private final Path caKey;

    private ThrowawayPki(Path folder) {
        this.folder = folder;
        this.caCertificate = folder.resolve("ca.crt");
        this.caKey = folder.resolve("ca.key");
    }

    /** Makes a new CA in {@code folder}. */
    public static ThrowawayPki create(Path folder) {
        ThrowawayPki pki = new ThrowawayPki(folder);
        pki.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", pki.caKey.toString(), "-out", pki.caCertificate.toString(), "-days", "2",
                "-subj", "/CN=stockade-test-ca");
        return pki;
    }

    /** The CA certificate's PEM file (what the API server's {@code --client-ca-file} and clients trust). */
    public Path caCertificate() {
        return caCertificate;
    }

    /**
     * Issues a leaf certificate signed by the CA. {@code subject} is an openssl subject ({@code /O=group/CN=name});
     * {@code ipAddresses} and {@code dnsNames} become its subject alternative names (a server's must name the address
     * clients dial, or they refuse it).
     */
    public Issued issue(String name, String subject, Use use, List<String> ipAddresses, List<String> dnsNames) {
        Path key = folder.resolve(name + ".key");
        Path csr = folder.resolve(name + ".csr");
        Path certificate = folder.resolve(name + ".crt");
        Path extensions = folder.resolve(name + ".ext");
        List<String> sans = new ArrayList<>();
        ipAddresses.forEach(ip -> sans.add("IP:" + ip));
        dnsNames.forEach(dns -> sans.add("DNS:" + dns));
        StringBuilder ext = new StringBuilder("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n")
                .append("extendedKeyUsage=").append(use == Use.SERVER ? "serverAuth" : "clientAuth").append('\n');
        if (!sans.isEmpty()) {
            ext.append("subjectAltName=").append(String.join(",", sans)).append('\n');
        }
        try {
            Files.writeString(extensions, ext);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", csr.toString(), "-subj", subject);
        byte[] serial = new byte[16];
        new SecureRandom().nextBytes(serial);
        serial[0] &= 0x7f; // a positive serial
        openssl("x509", "-req", "-in", csr.toString(), "-CA", caCertificate.toString(), "-CAkey", caKey.toString(),
                "-set_serial", "0x" + HexFormat.of().formatHex(serial), "-days", "2", "-extfile", extensions.toString(),
                "-out", certificate.toString());
        return new Issued(certificate, key);
    }

    /** Makes a key pair alone (a service-account signing key): the private key's PEM file, the public key's. */
    public Issued keyPair(String name) {
        Path key = folder.resolve(name + ".key");
        Path pub = folder.resolve(name + ".pub");
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", key.toString());
        openssl("pkey", "-in", key.toString(), "-pubout", "-out", pub.toString());
        return new Issued(pub, key);
    }

    /** A TLS context that presents {@code identity} (when not null) and trusts only this CA. */
    public SSLContext sslContext(Issued identity) {
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", certificate(x509, caCertificate));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            KeyManagerFactory kmf = null;
            if (identity != null) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                Certificate leaf = certificate(x509, identity.certificate());
                keys.setKeyEntry("leaf", privateKey(identity.key()), new char[0], new Certificate[] {leaf});
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, new char[0]);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), new SecureRandom());
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the throwaway CA's files do not load: " + e.getMessage(), e);
        }
    }

    private static Certificate certificate(CertificateFactory x509, Path pem) throws IOException,
            GeneralSecurityException {
        try (var in = Files.newInputStream(pem)) {
            return x509.generateCertificate(in);
        }
    }

    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        String text = Files.readString(pem);
        if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new GeneralSecurityException(pem + " is not a PKCS#8 private key");
        }
        String body = text.substring(text.indexOf("-----BEGIN PRIVATE KEY-----") + 27, text.indexOf("-----END"))
                .replaceAll("\\s", "");
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }

    private void openssl(String... args) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true).start();
            byte[] output = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("openssl " + args[0] + " failed: "
                        + new String(output, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("openssl cannot run (apt-get install openssl): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while openssl ran", e);
        }
    }

    /** The PEM text of {@code file} as the base64 a kubeconfig's {@code *-data} fields hold. */
    public static String base64(Path file) {
        try {
            return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
