package dev.stockade.api.clusters;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A client of the Kubernetes channel protocol ({@code v4.channel.k8s.io}) over the JDK's own WebSocket client: what
 * each channel brought, and how the server closed the stream, for a test to wait on with a bound.
 */
final class ChannelSocket implements WebSocket.Listener {
    final ByteArrayOutputStream[] channels = {new ByteArrayOutputStream(), new ByteArrayOutputStream(),
        new ByteArrayOutputStream(), new ByteArrayOutputStream()};
    /** The close code the server sent (or -1 when the connection broke without a close frame). */
    final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    WebSocket socket;

    /** Opens the stream; the handshake's status when the platform or the cluster refused it. */
    static Opened open(URI uri, String token) throws InterruptedException {
        ChannelSocket listener = new ChannelSocket();
        CompletableFuture<WebSocket> future = HttpClient.newHttpClient().newWebSocketBuilder()
                .header("Authorization", "Bearer " + token).subprotocols("v4.channel.k8s.io")
                .connectTimeout(Duration.ofSeconds(30)).buildAsync(uri, listener);
        try {
            listener.socket = future.get(60, TimeUnit.SECONDS);
            return new Opened(listener, 101);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException h) {
                return new Opened(null, h.getResponse().statusCode());
            }
            throw new AssertionError("the handshake failed without an answer", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no handshake answer within 60 s", e);
        }
    }

    /** The outcome of a handshake: an open stream (status 101) or the refusal's status. */
    record Opened(ChannelSocket stream, int status) {
    }

    /** Sends {@code bytes} on {@code channel} as one binary frame. */
    void send(int channel, byte[] bytes) throws Exception {
        socket.sendBinary(ByteBuffer.allocate(bytes.length + 1).put((byte) channel).put(bytes).flip(), true)
                .get(30, TimeUnit.SECONDS);
    }

    synchronized String text(int channel) {
        return channels[channel].toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        synchronized (this) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            partial.writeBytes(bytes);
            if (last) {
                byte[] frame = partial.toByteArray();
                partial.reset();
                if (frame.length > 0 && frame[0] >= 0 && frame[0] < channels.length) {
                    channels[frame[0]].write(frame, 1, frame.length - 1);
                }
            }
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.complete(-1);
    }
}
