package dev.stockade.runtime.channel.voice;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A minimal HTTP CONNECT proxy on loopback that records each request line and pipes the tunnel both ways. Built with a
 * user and password it demands {@code Proxy-Authorization: Basic} and answers 407 with {@code Proxy-Authenticate}
 * otherwise, as squid does with basic authentication.
 */
final class ConnectProxy implements AutoCloseable {
    final List<String> requests = new CopyOnWriteArrayList<>();
    /** The {@code Proxy-Authorization} header of each request, or an empty string when there was none. */
    final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final ServerSocket listener;
    private final String expected;

    ConnectProxy() throws IOException {
        this(null, null);
    }

    ConnectProxy(String user, String password) throws IOException {
        this.expected = user == null ? null : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "connect-proxy");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                String head = head(client.getInputStream());
                String[] lines = head.split("\r\n");
                requests.add(lines[0]);
                String auth = "";
                for (String l : lines) {
                    if (l.toLowerCase(Locale.ROOT).startsWith("proxy-authorization:")) {
                        auth = l.substring(l.indexOf(':') + 1).strip();
                    }
                }
                authorizations.add(auth);
                if (expected != null && !expected.equals(auth)) {
                    client.getOutputStream().write(("HTTP/1.1 407 Proxy Authentication Required\r\n"
                            + "Proxy-Authenticate: Basic realm=\"proxy\"\r\nContent-Length: 0\r\nConnection: close"
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    client.close();
                    continue;
                }
                String[] hostPort = lines[0].split(" ")[1].split(":");
                Socket upstream = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
                client.getOutputStream().write("HTTP/1.1 200 Connection established\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                pipe(client.getInputStream(), upstream.getOutputStream());
                pipe(upstream.getInputStream(), client.getOutputStream());
            } catch (IOException | RuntimeException e) {
                return;
            }
        }
    }

    /** The request head, read byte by byte so nothing of the tunnel is consumed. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            b.write(c);
            if (b.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                break;
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    private static void pipe(InputStream from, OutputStream to) {
        Thread t = new Thread(() -> {
            try {
                from.transferTo(to);
            } catch (IOException e) {
                // one side closed
            }
        }, "connect-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
