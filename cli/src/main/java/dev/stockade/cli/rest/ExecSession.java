package dev.stockade.cli.rest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The client side of the exec socket's frames (docs/platform.md, "Interactive exec"): stdout and stderr to this
 * process's, the remote exit status as the result, and, once the command started, this process's standard input
 * to the sandbox (or an immediate end of input).
 */
final class ExecSession implements WebSocket.Listener {
    private final OutputStream out;
    private final OutputStream err;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final java.io.ByteArrayOutputStream partial = new java.io.ByteArrayOutputStream();

    ExecSession(OutputStream out, OutputStream err) {
        this.out = out;
        this.err = err;
    }

    /** Waits for the start, forwards {@code stdin} (null: none) and returns the remote exit status. */
    int run(WebSocket ws, InputStream stdin) throws Exception {
        started.get();
        if (stdin != null) {
            byte[] buf = new byte[16 * 1024];
            int n;
            while ((n = stdin.read(buf)) > 0) {
                ByteBuffer frame = ByteBuffer.allocate(n + 1).put((byte) 0).put(buf, 0, n).flip();
                ws.sendBinary(frame, true).get();
            }
        }
        ws.sendBinary(ByteBuffer.wrap(new byte[] {0}), true).get();
        return exit.get();
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
        byte[] b = new byte[data.remaining()];
        data.get(b);
        partial.writeBytes(b);
        if (last) {
            byte[] frame = partial.toByteArray();
            partial.reset();
            try {
                handle(frame);
            } catch (IOException e) {
                exit.completeExceptionally(e);
            }
        }
        ws.request(1);
        return null;
    }

    private void handle(byte[] frame) throws IOException {
        if (frame.length == 0) {
            return;
        }
        switch (frame[0]) {
            case 1 -> {
                out.write(frame, 1, frame.length - 1);
                out.flush();
            }
            case 2 -> {
                err.write(frame, 1, frame.length - 1);
                err.flush();
            }
            case 3 -> exit.complete(((frame[1] & 0xff) << 24) | ((frame[2] & 0xff) << 16) | ((frame[3] & 0xff) << 8)
                    | (frame[4] & 0xff));
            case 5 -> started.complete(null);
            default -> { }
        }
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
        Failure f = Failure.usage("the exec ended without an exit status: " + Text.safe(reason) + " (" + status + ")");
        started.completeExceptionally(f);
        exit.completeExceptionally(f);
        return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
        Failure f = Failure.usage("the exec connection failed: " + Text.safe(String.valueOf(error.getMessage())));
        started.completeExceptionally(f);
        exit.completeExceptionally(f);
    }
}
