package dev.stockade.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.stockade.proxy.internal.CertificateAuthority;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Real origins on loopback for the tests: a plain HTTP server and an HTTPS server whose certificate
 * (for the given host names) is signed by a test CA the proxy is told to trust. Each answers with
 * the method, path and the request headers it received, one per line.
 */
final class Origins implements AutoCloseable {
    final HttpServer plain;
    final HttpsServer tls;
    final Path originCaPem;
    final SSLContext sslContext;
    final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();

    Origins(Path dir, String... tlsHosts) throws Exception {
        plain = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        plain.createContext("/", this::echo);
        plain.setExecutor(Executors.newFixedThreadPool(4));
        plain.start();

        KeyPair caPair = CertificateAuthority.ecKeyPair();
        X509Certificate ca = CertificateAuthority.selfSignedCa(caPair, "Stockade test origin CA");
        KeyPair leafPair = CertificateAuthority.ecKeyPair();
        X509Certificate leaf = CertificateAuthority.leaf(List.of(tlsHosts), leafPair, ca, caPair.getPrivate());
        originCaPem = dir.resolve("origin-ca.pem");
        Files.writeString(originCaPem, CertificateAuthority.pem(ca));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("leaf", leafPair.getPrivate(), new char[0], new Certificate[] {leaf, ca});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, new char[0]);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        sslContext = ctx;
        tls = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        tls.setHttpsConfigurator(new HttpsConfigurator(ctx));
        tls.createContext("/", this::echo);
        tls.setExecutor(Executors.newFixedThreadPool(4));
        tls.start();
    }

    int plainPort() {
        return plain.getAddress().getPort();
    }

    int tlsPort() {
        return tls.getAddress().getPort();
    }

    private void echo(HttpExchange ex) throws IOException {
        byte[] in = ex.getRequestBody().readAllBytes();
        StringBuilder b = new StringBuilder();
        b.append(ex.getRequestMethod()).append(' ').append(ex.getRequestURI()).append('\n');
        Map<String, List<String>> sorted = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        sorted.putAll(ex.getRequestHeaders());
        sorted.forEach((k, v) -> b.append(k.toLowerCase()).append(": ").append(String.join(",", v)).append('\n'));
        b.append("body-bytes: ").append(in.length).append('\n');
        seen.add(b.toString());
        byte[] out = b.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain");
        ex.sendResponseHeaders(200, out.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(out);
        }
    }

    @Override
    public void close() {
        plain.stop(0);
        tls.stop(0);
        ((java.util.concurrent.ExecutorService) plain.getExecutor()).shutdownNow();
        ((java.util.concurrent.ExecutorService) tls.getExecutor()).shutdownNow();
    }
}
