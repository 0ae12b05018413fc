package dev.stockade.api.support;

import java.io.ByteArrayOutputStream;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What the platform's exec WebSocket sends a client, frame by frame (the first byte the channel): 1 stdout, 2 stderr,
 * 3 the exit status (4 bytes, big-endian), 5 started. A close before the exit fails {@link #exit} and {@link #started}.
 */
public final class ExecFrames implements WebSocket.Listener {
    public final ByteArrayOutputStream out = new ByteArrayOutputStream();
    public final ByteArrayOutputStream err = new ByteArrayOutputStream();
    public final CompletableFuture<Integer> exit = new CompletableFuture<>();
    public final CompletableFuture<Void> started = new CompletableFuture<>();
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

    @Override
    public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
        byte[] b = new byte[data.remaining()];
        data.get(b);
        partial.writeBytes(b);
        if (last) {
            byte[] frame = partial.toByteArray();
            partial.reset();
            switch (frame[0]) {
                case 1 -> out.write(frame, 1, frame.length - 1);
                case 2 -> err.write(frame, 1, frame.length - 1);
                case 3 -> exit.complete(ByteBuffer.wrap(frame, 1, 4).getInt());
                case 5 -> started.complete(null);
                default -> { }
            }
        }
        ws.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
        exit.completeExceptionally(new IllegalStateException("closed " + status + " " + reason));
        started.completeExceptionally(new IllegalStateException("closed " + status + " " + reason));
        return null;
    }
}
