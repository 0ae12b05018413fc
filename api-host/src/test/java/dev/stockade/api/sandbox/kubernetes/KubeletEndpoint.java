package dev.stockade.api.sandbox.kubernetes;

import dev.stockade.testing.LoopbackWebSocketServer;
import dev.stockade.testing.ThrowawayPki;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.java_websocket.WebSocket;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.protocols.Protocol;
import org.java_websocket.server.SSLParametersWebSocketServerFactory;

/**
 * A kubelet's exec endpoint as the API server reaches it, since no kubelet can run here: TLS with a certificate of the
 * test's CA for 127.0.0.1, a client certificate required (the API server's kubelet-client identity), and the
 * WebSocket form of the streaming protocol ({@code v4.channel.k8s.io}). It runs the asked command on this machine,
 * streams its stdout and stderr on channels 1 and 2, feeds channel 0 to its stdin and reports the exit status on
 * channel 3, as a kubelet does for a container. Only what one command needs: no SPDY, attach or port-forward.
 */
final class KubeletEndpoint extends LoopbackWebSocketServer implements AutoCloseable {
    /** What the API server asked: the request line's target and the client certificate's subject. */
    record Call(String target, String caller) {
    }

    final List<Call> calls = new CopyOnWriteArrayList<>();

    private KubeletEndpoint(ThrowawayPki pki) {
        super(List.of(new Draft_6455(List.of(),
                List.of(new Protocol("v4.channel.k8s.io"), new Protocol("channel.k8s.io")))));
        var identity = pki.issue("kubelet", "/CN=loopback-node", ThrowawayPki.Use.SERVER, List.of("127.0.0.1"),
                List.of());
        SSLParameters parameters = new SSLParameters();
        parameters.setNeedClientAuth(true);
        setWebSocketFactory(new SSLParametersWebSocketServerFactory(pki.sslContext(identity), parameters));
    }

    /** Starts listening on a free loopback port; returns once it listens. */
    static KubeletEndpoint start(ThrowawayPki pki) throws InterruptedException {
        KubeletEndpoint endpoint = new KubeletEndpoint(pki);
        endpoint.listen();
        return endpoint;
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
        String target = handshake.getResourceDescriptor();
        String caller;
        try {
            caller = conn.getSSLSession().getPeerPrincipal().getName();
        } catch (SSLPeerUnverifiedException | IllegalArgumentException e) {
            caller = "";
        }
        calls.add(new Call(target, caller));
        URI uri = URI.create(target);
        List<String> command = new ArrayList<>();
        boolean tty = false;
        for (String pair : uri.getRawQuery() == null ? new String[0] : uri.getRawQuery().split("&")) {
            String[] kv = pair.split("=", 2);
            String value = kv.length < 2 ? "" : URLDecoder.decode(kv[1], StandardCharsets.UTF_8);
            if (kv[0].equals("command")) {
                command.add(value);
            } else if (kv[0].equals("tty") && (value.equals("1") || value.equals("true"))) {
                tty = true;
            }
        }
        if (!uri.getPath().startsWith("/exec/") || command.isEmpty()) {
            conn.close(1008, "only exec with a command is served here");
            return;
        }
        run(conn, command, tty);
    }

    private void run(WebSocket conn, List<String> command, boolean tty) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(tty); // a tty has one stream
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            status(conn, "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"executable not found\","
                    + "\"reason\":\"InternalError\"}");
            return;
        }
        conn.setAttachment(process);
        Thread out = pump(conn, process.getInputStream(), 1);
        Thread err = tty ? null : pump(conn, process.getErrorStream(), 2);
        background("exit", () -> {
            try {
                int exit = process.waitFor();
                out.join();
                if (err != null) {
                    err.join();
                }
                status(conn, exit == 0 ? "{\"metadata\":{},\"status\":\"Success\"}"
                        : "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"command terminated with non-zero exit"
                        + " code\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\","
                        + "\"message\":\"" + exit + "\"}]}}");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static Thread pump(WebSocket conn, InputStream in, int channel) {
        return background("channel-" + channel, () -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    ByteBuffer frame = ByteBuffer.allocate(n + 1).put((byte) channel).put(buffer, 0, n).flip();
                    conn.send(frame);
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }

    private static Thread background(String name, Runnable task) {
        Thread thread = new Thread(task, "kubelet-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void status(WebSocket conn, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        conn.send(ByteBuffer.allocate(bytes.length + 1).put((byte) 3).put(bytes).flip());
        conn.close(1000);
    }

    @Override
    public void onMessage(WebSocket conn, ByteBuffer message) {
        Process process = conn.getAttachment();
        if (process == null || !message.hasRemaining() || message.get() != 0) {
            return; // channel 4 (resize) has no terminal to size here
        }
        byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        try {
            OutputStream stdin = process.getOutputStream();
            stdin.write(bytes);
            stdin.flush();
        } catch (IOException e) {
            // the process no longer reads
        }
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
        // v4.channel.k8s.io is binary; base64 text channels are not spoken here
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
        Process process = conn.getAttachment();
        if (process != null) {
            process.destroyForcibly();
        }
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {
        // a broken connection ends its process in onClose
    }

    @Override
    public void close() throws InterruptedException {
        stop(5_000);
    }
}
