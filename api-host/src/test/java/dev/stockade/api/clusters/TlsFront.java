package dev.stockade.api.clusters;

import dev.stockade.testing.ThrowawayPki;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLServerSocket;

/**
 * TLS in front of the platform's plain HTTP port on loopback, as its ingress terminates TLS in a deployment: kubectl
 * sends a token only to an {@code https} server. Each connection's bytes are relayed both ways unchanged (an upgraded
 * stream's too); when either side ends, both are closed.
 */
final class TlsFront implements AutoCloseable {
    private final ThrowawayPki pki;
    private final SSLServerSocket server;
    private final int platformPort;

    private TlsFront(ThrowawayPki pki, SSLServerSocket server, int platformPort) {
        this.pki = pki;
        this.server = server;
        this.platformPort = platformPort;
    }

    /** Listens on a free loopback port with a certificate for 127.0.0.1 from a throwaway CA in {@code scratch}. */
    static TlsFront start(Path scratch, int platformPort) {
        ThrowawayPki pki = ThrowawayPki.create(scratch);
        var identity = pki.issue("platform", "/CN=platform", ThrowawayPki.Use.SERVER, List.of("127.0.0.1"), List.of());
        try {
            SSLServerSocket server = (SSLServerSocket) pki.sslContext(identity).getServerSocketFactory()
                    .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            TlsFront front = new TlsFront(pki, server, platformPort);
            daemon("tls-front-accept", front::accept);
            return front;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return server.getLocalPort();
    }

    /** The CA certificate (PEM) a client verifies the front with. */
    Path caCertificate() {
        return pki.caCertificate();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket platform = new Socket(InetAddress.getLoopbackAddress(), platformPort);
                daemon("tls-front-in", () -> relay(client, platform));
                daemon("tls-front-out", () -> relay(platform, client));
            } catch (IOException e) {
                // closed, or one connection failed: the next accept goes on while the socket is open
            }
        }
    }

    private static void relay(Socket from, Socket to) {
        try (from; to) {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buffer = new byte[16384];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side ended: both close
        }
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
