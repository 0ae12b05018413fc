package dev.stockade.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Kubernetes Service is to the proxy replicas here: one address in front of the platform replicas that sends
 * each new TCP connection to the first replica that accepts it, so a proxy whose platform replica died reconnects to a
 * live one at the same URL. It reads nothing but the request lines going through, to record which feed version each
 * feed request resumed after ({@code GET /v1/egress/feed?after=N}, with or without {@code &wire=2}).
 */
public final class PlatformFront implements AutoCloseable {
    /** One feed request that went through: the version it asked to resume after, and the replica it reached. */
    public record FeedRequest(long after, int replicaPort) {
    }

    private static final Pattern FEED = Pattern.compile("GET /v1/egress/feed\\?after=(\\d+)(&[^ ]*)? HTTP");

    private final ServerSocket listener;
    private final List<Integer> replicaPorts;
    private final List<FeedRequest> feedRequests = new CopyOnWriteArrayList<>();
    private final ExecutorService pipes = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "platform-front");
        t.setDaemon(true);
        return t;
    });

    public PlatformFront(List<Integer> replicaPorts) throws IOException {
        this.replicaPorts = List.copyOf(replicaPorts);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        pipes.execute(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    public List<FeedRequest> feedRequests() {
        return List.copyOf(feedRequests);
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                pipes.execute(() -> connect(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** The first replica, in order, that accepts the connection; the client's socket is closed when none does. */
    private void connect(Socket client) {
        for (int port : replicaPorts) {
            Socket upstream = new Socket();
            try {
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
            } catch (IOException refused) {
                close(upstream);
                continue;
            }
            pipes.execute(() -> pipe(client, upstream, port, true));
            pipe(upstream, client, port, false);
            return;
        }
        close(client);
    }

    /** Copies bytes until either side ends, then closes both (a dead replica ends its clients' connections). */
    private void pipe(Socket from, Socket to, int replicaPort, boolean requests) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (requests) {
                    Matcher m = FEED.matcher(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                    while (m.find()) {
                        feedRequests.add(new FeedRequest(Long.parseLong(m.group(1)), replicaPort));
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException ended) {
            // one side went away: the other is closed below
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        pipes.shutdownNow();
    }
}
