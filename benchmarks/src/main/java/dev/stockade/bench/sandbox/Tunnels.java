package dev.stockade.bench.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One open connection per sandbox through the platform's proxy, each authenticated with that sandbox's token: a
 * plain HTTP request to an origin that reads it and never answers, so the connection stays open end to end (client,
 * proxy, origin) as a tunnel does; a reader thread per connection notes when the proxy closes it. (A CONNECT tunnel
 * would need TLS end to end here: the proxy refuses CONNECT to hosts it does not intercept, spec rule 5, and closes
 * an intercepted tunnel that sends no ClientHello within its handshake bound.)
 */
final class Tunnels implements AutoCloseable {
    private final List<Socket> sockets;
    private final AtomicLongArray closedAt;
    private final CountDownLatch closed;

    private Tunnels(List<Socket> sockets) {
        this.sockets = sockets;
        this.closedAt = new AtomicLongArray(sockets.size());
        this.closed = new CountDownLatch(sockets.size());
        for (int i = 0; i < sockets.size(); i++) {
            int n = i;
            Thread t = new Thread(() -> watch(n), "tunnel-" + i);
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * Opens a connection per proxy URL ({@code http://sandbox:TOKEN@host:port}) with a request to
     * {@code origin.bench:originPort} that the origin holds; returns once the origin holds every one of them.
     */
    static Tunnels open(List<String> proxies, Origin origin) throws IOException, InterruptedException {
        List<Socket> sockets = new ArrayList<>();
        int before = origin.held();
        for (String proxy : proxies) {
            URI u = URI.create(proxy);
            Socket s = new Socket(u.getHost(), u.getPort());
            OutputStream out = s.getOutputStream();
            String auth = Base64.getEncoder().encodeToString(u.getUserInfo().getBytes(StandardCharsets.UTF_8));
            out.write(("GET http://origin.bench:" + origin.port() + "/hold HTTP/1.1\r\nHost: origin.bench:"
                    + origin.port() + "\r\nProxy-Authorization: Basic " + auth + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            sockets.add(s);
        }
        for (int i = 0; i < 6000 && origin.held() < before + proxies.size(); i++) {
            Thread.sleep(10); // the proxy decides and dials each request: wait until the origin holds them all
        }
        if (origin.held() < before + proxies.size()) {
            throw new IOException("the origin holds " + (origin.held() - before) + " of " + proxies.size()
                    + " requests (refused by the proxy?)");
        }
        return new Tunnels(sockets);
    }

    /** Waits until every tunnel closed; for each, milliseconds from {@code t0} to its close. */
    List<Double> awaitClosed(long t0, Duration timeout) throws InterruptedException {
        if (!closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(closed.getCount() + " tunnels stayed open");
        }
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < closedAt.length(); i++) {
            ms.add((closedAt.get(i) - t0) / 1e6);
        }
        return ms;
    }

    private void watch(int i) {
        try (InputStream in = sockets.get(i).getInputStream()) {
            while (in.read() >= 0) {
                // the origin sends nothing; a byte would be the tunnel's own
            }
        } catch (IOException reset) {
            // closed by a reset: closed all the same
        }
        closedAt.set(i, System.nanoTime());
        closed.countDown();
    }

    @Override
    public void close() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    /** An origin that accepts connections and holds them open until the other side closes. */
    static final class Origin implements AutoCloseable {
        private final ServerSocket server;
        private final java.util.concurrent.atomic.AtomicInteger held = new java.util.concurrent.atomic.AtomicInteger();

        private Origin(ServerSocket server) {
            this.server = server;
        }

        static Origin start() throws IOException {
            Origin o = new Origin(new ServerSocket(0, 2048, InetAddress.getLoopbackAddress()));
            Thread accept = new Thread(o::accept, "origin-accept");
            accept.setDaemon(true);
            accept.start();
            return o;
        }

        int port() {
            return server.getLocalPort();
        }

        /** Requests read and held so far. */
        int held() {
            return held.get();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread t = new Thread(() -> hold(s, held), "origin-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void hold(Socket s, java.util.concurrent.atomic.AtomicInteger held) {
            try (s; InputStream in = s.getInputStream()) {
                StringBuilder head = new StringBuilder();
                for (int c = in.read(); c >= 0; c = in.read()) {
                    if (head != null) {
                        head.append((char) c);
                        if (head.toString().endsWith("\r\n\r\n")) {
                            held.incrementAndGet(); // the request arrived: never answer it
                            head = null;
                        }
                    }
                }
            } catch (IOException e) {
                // closed
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
