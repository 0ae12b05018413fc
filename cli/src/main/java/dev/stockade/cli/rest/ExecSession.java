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
        return run(ws, stdin, null, false);
    }

    /**
     * As {@link #run(WebSocket, InputStream)}, and while the command runs sends a resize frame whenever
     * {@code size} ({@code [cols, rows]}, polled every half second; null: never) changes.
     */
    int run(WebSocket ws, InputStream stdin, java.util.function.Supplier<int[]> size, boolean tty)
            throws Exception {
        started.get();
        java.util.concurrent.ScheduledExecutorService poll = null;
        if (size != null) {
            poll = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "terminal-size");
                t.setDaemon(true);
                return t;
            });
            int[][] last = {size.get()};
            poll.scheduleWithFixedDelay(() -> {
                int[] now = size.get();
                if (now[0] != last[0][0] || now[1] != last[0][1]) {
                    last[0] = now;
                    byte[] json = ("{\"cols\":" + now[0] + ",\"rows\":" + now[1] + "}").getBytes(
                            java.nio.charset.StandardCharsets.UTF_8);
                    ws.sendBinary(ByteBuffer.allocate(json.length + 1).put((byte) 4).put(json).flip(), true);
                }
            }, 500, 500, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        try {
            return forward(ws, stdin, tty);
        } finally {
            if (poll != null) {
                poll.shutdownNow();
            }
        }
    }

    /** Sends stdin, then its end; a terminal without stdin gets no end of input (it would read it as a keystroke). */
    private int forward(WebSocket ws, InputStream stdin, boolean terminal) throws Exception {
        if (stdin != null) {
            byte[] buf = new byte[16 * 1024];
            int n;
            while ((n = stdin.read(buf)) > 0) {
                ByteBuffer frame = ByteBuffer.allocate(n + 1).put((byte) 0).put(buf, 0, n).flip();
                ws.sendBinary(frame, true).get();
            }
        }
        if (stdin != null || !terminal) {
            ws.sendBinary(ByteBuffer.wrap(new byte[] {0}), true).get();
        }
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
