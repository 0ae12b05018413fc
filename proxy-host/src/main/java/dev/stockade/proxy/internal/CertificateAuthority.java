package dev.stockade.proxy.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The install's interception CA: created on first start in the data directory (key 0600, directory
 * 0700), exported as PEM; mints and caches (bounded) one leaf certificate per intercepted host.
 */
public final class CertificateAuthority {

    /** File name of the exported CA certificate inside the data directory. */
    public static final String CA_CERT_FILE = "ca.pem";
    private static final String CA_KEY_FILE = "ca-key.pem";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final X509Certificate caCert;
    private final PrivateKey caKey;
    private final Path certPath;
    private final Cache<String, SslContext> leaves;

    private CertificateAuthority(X509Certificate caCert, PrivateKey caKey, Path certPath, int cacheSize) {
        this.caCert = caCert;
        this.caKey = caKey;
        this.certPath = certPath;
        this.leaves = Caffeine.newBuilder().maximumSize(cacheSize).expireAfterAccess(Duration.ofHours(12)).build();
    }

    /** Loads the CA from {@code dataDir}, creating it on first start. */
    public static CertificateAuthority loadOrCreate(Path dataDir, int cacheSize) throws IOException {
        Files.createDirectories(dataDir);
        restrict(dataDir, "rwx------");
        Path certPath = dataDir.resolve(CA_CERT_FILE);
        Path keyPath = dataDir.resolve(CA_KEY_FILE);
        try {
            if (Files.exists(certPath) && Files.exists(keyPath)) {
                return new CertificateAuthority(readCert(certPath), readKey(keyPath), certPath, cacheSize);
            }
            KeyPair pair = ecKeyPair();
            X509Certificate cert = selfSignedCa(pair, "Stockade interception CA");
            Path tmpKey = dataDir.resolve(CA_KEY_FILE + ".tmp");
            Files.deleteIfExists(tmpKey);
            // INVARIANT: the key file is 0600 before a byte of the key is written
            Files.createFile(tmpKey);
            restrict(tmpKey, "rw-------");
            Files.writeString(tmpKey, pkcs8Pem(pair.getPrivate()), StandardOpenOption.TRUNCATE_EXISTING);
            Files.move(tmpKey, keyPath, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.writeString(certPath, pem(cert));
            return new CertificateAuthority(cert, pair.getPrivate(), certPath, cacheSize);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot create or read the interception CA in `" + dataDir + "`: " + e.getMessage(), e);
        }
    }

    /** The CA certificate clients must trust. */
    public X509Certificate certificate() {
        return caCert;
    }

    /** Path of the exported PEM certificate. */
    public Path certificatePath() {
        return certPath;
    }

    /** A server TLS context presenting a leaf for {@code host}, minted once and cached. */
    public SslContext serverContext(String host) {
        return leaves.get(host, h -> {
            try {
                KeyPair pair = ecKeyPair();
                X509Certificate leaf = leaf(h, pair, caCert, caKey);
                return SslContextBuilder.forServer(pair.getPrivate(), leaf, caCert)
                        .protocols("TLSv1.3", "TLSv1.2").build();
            } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
                throw new IllegalStateException("cannot mint a certificate for `" + h + "`", e);
            }
        });
    }

    /** Number of cached leaves (for metrics and tests). */
    public long cachedLeaves() {
        leaves.cleanUp();
        return leaves.estimatedSize();
    }

    /** Mints a leaf certificate for {@code host} signed by {@code issuer}; used for test origins too. */
    public static X509Certificate leaf(String host, KeyPair pair, X509Certificate issuer, PrivateKey issuerKey)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        return leaf(java.util.List.of(host), pair, issuer, issuerKey);
    }

    /** Mints a leaf certificate naming every host of {@code hosts} (the first is the subject). */
    public static X509Certificate leaf(java.util.List<String> hosts, KeyPair pair, X509Certificate issuer,
                                       PrivateKey issuerKey)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        String host = hosts.get(0);
        Instant now = Instant.now();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer.getSubjectX500Principal(), serial(),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(30))),
                new X500Principal("CN=" + cnSafe(host)), pair.getPublic());
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        GeneralName[] sans = hosts.stream().map(h -> isIpLiteral(h) ? new GeneralName(GeneralName.iPAddress, h)
                : new GeneralName(GeneralName.dNSName, h)).toArray(GeneralName[]::new);
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans));
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuer));
        b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
        return sign(b, issuerKey);
    }

    /** A fresh self-signed CA certificate. */
    public static X509Certificate selfSignedCa(KeyPair pair, String cn)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        Instant now = Instant.now();
        X500Name name = new X500Name("CN=" + cn);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(3650))), name,
                pair.getPublic());
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
        return sign(b, pair.getPrivate());
    }

    /** A new P-256 key pair. */
    public static KeyPair ecKeyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return g.generateKeyPair();
    }

    /** PEM text of a certificate or key. */
    public static String pem(Object o) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(o);
        }
        return s.toString();
    }

    /**
     * PKCS#8 PEM of a private key, as the JDK encodes it: the curve travels in the algorithm
     * identifier, so the key reads back with the JDK's own providers.
     */
    static String pkcs8Pem(PrivateKey key) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey key)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        X509CertificateHolder holder = b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key));
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }

    private static String cnSafe(String host) {
        // a host never contains these after normalisation; keep the DN well-formed regardless
        return host.replaceAll("[^A-Za-z0-9.:*-]", "_");
    }

    private static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    private static X509Certificate readCert(Path p) throws IOException, GeneralSecurityException {
        try (Reader r = Files.newBufferedReader(p, StandardCharsets.US_ASCII); PEMParser parser = new PEMParser(r)) {
            Object o = parser.readObject();
            if (!(o instanceof X509CertificateHolder h)) {
                throw new IOException("`" + p + "` holds no certificate");
            }
            return new JcaX509CertificateConverter().getCertificate(h);
        }
    }

    private static PrivateKey readKey(Path p) throws IOException, GeneralSecurityException {
        try (Reader r = Files.newBufferedReader(p, StandardCharsets.US_ASCII); PEMParser parser = new PEMParser(r)) {
            Object o = parser.readObject();
            org.bouncycastle.asn1.pkcs.PrivateKeyInfo info;
            if (o instanceof PEMKeyPair kp) {
                info = kp.getPrivateKeyInfo();
            } else if (o instanceof org.bouncycastle.asn1.pkcs.PrivateKeyInfo i) {
                info = i;
            } else {
                throw new IOException("`" + p + "` holds no private key");
            }
            String alg = org.bouncycastle.asn1.x9.X9ObjectIdentifiers.id_ecPublicKey
                    .equals(info.getPrivateKeyAlgorithm().getAlgorithm()) ? "EC" : "RSA";
            return java.security.KeyFactory.getInstance(alg)
                    .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(info.getEncoded()));
        }
    }

    private static void restrict(Path p, String perms) throws IOException {
        try {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
        } catch (UnsupportedOperationException e) {
            // not POSIX: nothing finer to set
        }
    }

}
