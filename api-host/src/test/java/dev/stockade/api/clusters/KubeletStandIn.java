package dev.stockade.api.clusters;

import dev.stockade.testing.LoopbackWebSocketServer;
import dev.stockade.testing.ThrowawayPki;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.net.ssl.SSLParameters;
import org.java_websocket.WebSocket;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.protocols.Protocol;
import org.java_websocket.server.SSLParametersWebSocketServerFactory;

/**
 * A kubelet's streaming endpoint as the API server reaches it, since no kubelet can run here: TLS with a certificate
 * of the API server's CA for 127.0.0.1, the API server's kubelet-client certificate required, and the WebSocket form
 * of the kubelet's protocols. {@code /exec/...} runs the asked command on this machine (stdout, stderr and the status
 * on channels 1, 2 and 3, channel 0 fed to stdin); {@code /portForward/...?port=N} connects to loopback port N, as a
 * kubelet connects into the pod, announces the port on channels 0 and 1 (two bytes, little-endian) and then carries
 * channel 0 both ways, as the kubelet's WebSocket port-forward does.
 */
final class KubeletStandIn extends LoopbackWebSocketServer implements Kubelet {
    /** Where channel 0 goes, and how to end what serves the connection when it closes. */
    private record Attached(Consumer<byte[]> sink, AutoCloseable end) {
    }

    /** What the API server asked: the request line's target. */
    final List<String> calls = new CopyOnWriteArrayList<>();

    private KubeletStandIn(ThrowawayPki pki) {
        super(List.of(new Draft_6455(List.of(),
                List.of(new Protocol("v4.channel.k8s.io"), new Protocol("channel.k8s.io"),
                        new Protocol("portforward.k8s.io"), new Protocol("")))));
        var identity = pki.issue("kubelet-stand-in", "/CN=loopback-node", ThrowawayPki.Use.SERVER,
                List.of("127.0.0.1"), List.of());
        SSLParameters parameters = new SSLParameters();
        parameters.setNeedClientAuth(true);
        setWebSocketFactory(new SSLParametersWebSocketServerFactory(pki.sslContext(identity), parameters));
    }

    /** Starts listening on a free loopback port; returns once it listens. */
    static KubeletStandIn start(ThrowawayPki pki) throws InterruptedException {
        KubeletStandIn endpoint = new KubeletStandIn(pki);
        endpoint.listen();
        return endpoint;
    }

    @Override
    public int port() {
        return getPort();
    }

    @Override
    public List<String> calls() {
        return calls;
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
        String target = handshake.getResourceDescriptor();
        calls.add(target);
        URI uri = URI.create(target);
        List<String> command = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        for (String pair : uri.getRawQuery() == null ? new String[0] : uri.getRawQuery().split("&")) {
            String[] kv = pair.split("=", 2);
            String value = kv.length < 2 ? "" : URLDecoder.decode(kv[1], StandardCharsets.UTF_8);
            if (kv[0].equals("command")) {
                command.add(value);
            } else if (kv[0].equals("port")) {
                ports.add(Integer.parseInt(value));
            }
        }
        if (uri.getPath().startsWith("/exec/") && !command.isEmpty()) {
            exec(conn, command);
        } else if (uri.getPath().startsWith("/portForward/") && ports.size() == 1) {
            forward(conn, ports.get(0));
        } else {
            conn.close(1008, "only exec with a command and port-forward of one port are served here");
        }
    }

    private void exec(WebSocket conn, List<String> command) {
        try {
            StandInProcess process = StandInProcess.start(command, new StandInProcess.Attachment() {
                @Override
                public void output(int fd, byte[] bytes) {
                    send(conn, fd, bytes); // stdout and stderr on channels 1 and 2
                }

                @Override
                public void exited(int code) {
                    send(conn, 3, Kubelet.execStatus(code));
                    conn.close(1000);
                }
            });
            conn.setAttachment(new Attached(process::input, process::destroy));
        } catch (IOException e) {
            send(conn, 3, "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"executable not found\"}");
            conn.close(1000);
        }
    }

    private void forward(WebSocket conn, int port) {
        byte[] announce = {(byte) (port & 0xff), (byte) (port >> 8)};
        send(conn, 0, announce);
        send(conn, 1, announce);
        Socket socket;
        try {
            socket = new Socket("127.0.0.1", port);
            OutputStream toPod = socket.getOutputStream();
            conn.setAttachment(new Attached(bytes -> {
                try {
                    toPod.write(bytes);
                } catch (IOException e) {
                    // the port no longer reads
                }
            }, socket::close));
        } catch (IOException e) {
            send(conn, 1, ("cannot connect to port " + port).getBytes(StandardCharsets.UTF_8));
            conn.close(1000);
            return;
        }
        background("forward", () -> {
            try (socket) {
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    send(conn, 0, java.util.Arrays.copyOf(buffer, n));
                }
            } catch (IOException e) {
                // the port's connection ended
            }
            conn.close(1000);
        });
    }

    private static void send(WebSocket conn, int channel, String text) {
        send(conn, channel, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(WebSocket conn, int channel, byte[] bytes) {
        if (conn.isOpen()) {
            conn.send(ByteBuffer.allocate(bytes.length + 1).put((byte) channel).put(bytes).flip());
        }
    }

    private static Thread background(String name, Runnable task) {
        Thread thread = new Thread(task, "kubelet-stand-in-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    @Override
    public void onMessage(WebSocket conn, ByteBuffer message) {
        Attached attached = conn.getAttachment();
        if (attached == null || !message.hasRemaining() || message.get() != 0) {
            return; // only channel 0 carries data towards the container
        }
        byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        attached.sink().accept(bytes);
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
        // the binary channel protocols only
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
        Attached attached = conn.getAttachment();
        if (attached != null) {
            try {
                attached.end().close(); // the process, or the forwarded connection, ends with the stream
            } catch (Exception e) {
                // already gone
            }
        }
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {
        // a broken connection ends in onClose
    }

    @Override
    public void close() throws InterruptedException {
        stop(5_000);
    }
}
