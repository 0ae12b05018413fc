package dev.stockade.api.clusters;

import io.netty.handler.codec.spdy.SpdyHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A port-forward over SPDY/3.1 (protocol {@code portforward.k8s.io}), as the kubelet serves it: for each connection
 * to a forwarded port the client opens an {@code error} and a {@code data} stream with the same {@code port} and
 * {@code requestid} headers; a stream without a port from 1 to 65535 or with another type is reset. Once both came,
 * the stand-in connects to that port on loopback, as the kubelet connects into the pod, and carries the data stream's
 * bytes both ways: the client's {@code FLAG_FIN} half-closes the connection, the port's end finishes both streams. A
 * port nothing listens on is reported as text on the error stream, as the kubelet reports it.
 */
final class SpdyPortForwardSession extends SpdyStreams {
    static final String PORT = "port";
    static final String REQUEST_ID = "requestid";
    private static final int CONNECT_MILLIS = 10_000;

    /** The two streams of one forwarded connection, and the connection to the pod's port once both came. */
    private static final class Pair {
        volatile int error = -1;
        volatile int data = -1;
        volatile int port;
        volatile Socket socket;

        boolean complete() {
            return error >= 0 && data >= 0;
        }
    }

    private final String pod;
    private final Map<String, Pair> pairs = new ConcurrentHashMap<>();
    private final Map<Integer, Pair> byStream = new ConcurrentHashMap<>();

    SpdyPortForwardSession(String pod) {
        this.pod = pod;
    }

    @Override
    Optional<String> refusal(SpdyHeaders headers) {
        String port = headers.getAsString(PORT);
        if (port == null || port.isEmpty()) {
            return Optional.of("\"port\" header is required");
        }
        try {
            int n = Integer.parseInt(port);
            if (n < 1 || n > 65535) {
                return Optional.of("port " + port + " must be from 1 to 65535");
            }
        } catch (NumberFormatException e) {
            return Optional.of("unable to parse " + port + " as a port");
        }
        String type = headers.getAsString(STREAM_TYPE);
        return "error".equals(type) || "data".equals(type) ? Optional.empty()
                : Optional.of("invalid stream type " + type);
    }

    @Override
    void opened(int streamId, SpdyHeaders headers) {
        boolean error = "error".equals(headers.getAsString(STREAM_TYPE));
        String requestId = headers.getAsString(REQUEST_ID);
        if (requestId == null || requestId.isEmpty()) {
            requestId = String.valueOf(error ? streamId : streamId - 2); // clients before request ids: 1 and 3, ...
        }
        Pair pair = pairs.computeIfAbsent(requestId, k -> new Pair());
        pair.port = Integer.parseInt(headers.getAsString(PORT));
        if (error) {
            pair.error = streamId;
        } else {
            pair.data = streamId;
        }
        byStream.put(streamId, pair);
        if (pair.complete()) {
            pairs.remove(requestId);
            connect(pair);
        }
    }

    /** Connects to the pod's port on loopback (on the event loop: a loopback connect does not wait) and pumps back. */
    private void connect(Pair pair) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), pair.port), CONNECT_MILLIS);
        } catch (IOException e) {
            send(pair.error, "error forwarding port " + pair.port + " to pod " + pod + ": " + e.getMessage());
            finishBoth(pair);
            return;
        }
        pair.socket = socket;
        Thread pump = new Thread(() -> {
            try (socket) {
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    send(pair.data, java.util.Arrays.copyOf(buffer, n));
                }
            } catch (IOException e) {
                // the pod's connection ended
            }
            finishBoth(pair);
        }, "kubelet-stand-in-forward-" + pair.port);
        pump.setDaemon(true);
        pump.start();
    }

    private void finishBoth(Pair pair) {
        finish(pair.data);
        finish(pair.error);
    }

    @Override
    void received(int streamId, byte[] bytes) {
        Pair pair = byStream.get(streamId);
        if (pair == null || pair.data != streamId || pair.socket == null) {
            return; // nothing is written on the error stream towards the pod
        }
        try {
            pair.socket.getOutputStream().write(bytes);
        } catch (IOException e) {
            // the pod's side is gone: the pump finishes the streams
        }
    }

    @Override
    void remoteFinished(int streamId) {
        Pair pair = byStream.get(streamId);
        if (pair != null && pair.data == streamId && pair.socket != null) {
            try {
                pair.socket.shutdownOutput();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    @Override
    void reset(int streamId) {
        Pair pair = byStream.remove(streamId);
        if (pair != null) {
            close(pair);
        }
    }

    @Override
    void closed() {
        byStream.values().forEach(SpdyPortForwardSession::close);
    }

    private static void close(Pair pair) {
        Socket s = pair.socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }
}
