package dev.stockade.cli.rest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The client side of the exec socket's frames (docs/platform.md, "Interactive exec"): stdout and stderr to this
 * process's, the remote exit status as the result, and, once the command started, this process's standard input
 * to the sandbox (or an immediate end of input).
 *
 * <p>The exit status frame alone decides the outcome. Standard input and resizes go out on threads of their own
 * and one at a time (the JDK socket refuses a send while another is pending); the sandbox closes the socket right
 * after the exit status, so a send that fails then is expected and changes nothing, and a command that ends while
 * this process still waits for a keystroke returns at once instead of after the next one.
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

    /**
     * Waits for the start, forwards {@code stdin} (null: none) and returns the remote exit status; while the
     * command runs sends a resize frame whenever {@code size} ({@code [cols, rows]}, polled every half second;
     * null: never) changes. Without stdin an end of input goes out only when {@code endInput}: a terminal would
     * read it as a keystroke, and a command that never reads its input needs none (see {@link SandboxExec}).
     */
    int run(WebSocket ws, InputStream stdin, Supplier<int[]> size, boolean endInput) throws Exception {
        started.get();
        Frames frames = new Frames(ws);
        ScheduledExecutorService poll = size == null ? null : Executors.newSingleThreadScheduledExecutor(
                r -> daemon(r, "terminal-size"));
        if (poll != null) {
            int[][] last = {size.get()};
            poll.scheduleWithFixedDelay(() -> {
                int[] now = size.get();
                if (now[0] != last[0][0] || now[1] != last[0][1]) {
                    last[0] = now;
                    frames.send(4, ("{\"cols\":" + now[0] + ",\"rows\":" + now[1] + "}")
                            .getBytes(StandardCharsets.UTF_8), 0, -1);
                }
            }, 500, 500, TimeUnit.MILLISECONDS);
        }
        if (stdin != null || endInput) {
            daemon(() -> forward(frames, stdin), "exec-stdin").start();
        }
        try {
            return exit.get();
        } finally {
            if (poll != null) {
                poll.shutdownNow();
            }
        }
    }

    /** Sends {@code stdin} (null: nothing), then the end of input; stops at the first refused send. */
    private static void forward(Frames frames, InputStream stdin) {
        try {
            if (stdin != null) {
                byte[] buf = new byte[16 * 1024];
                int n;
                while ((n = stdin.read(buf)) > 0) {
                    if (!frames.send(0, buf, 0, n)) {
                        return;
                    }
                }
            }
        } catch (IOException e) {
            // this process's input broke: the sandbox gets the end of input, as when it ends
        }
        frames.send(0, new byte[0], 0, 0);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Outgoing frames, one at a time. */
    private static final class Frames {
        private final WebSocket ws;

        Frames(WebSocket ws) {
            this.ws = ws;
        }

        /** False when the socket refused it (closed after the exit status, or broken: the listener reports it). */
        synchronized boolean send(int channel, byte[] payload, int off, int len) {
            int n = len < 0 ? payload.length : len;
            ByteBuffer frame = ByteBuffer.allocate(n + 1).put((byte) channel).put(payload, off, n).flip();
            try {
                ws.sendBinary(frame, true).get();
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (java.util.concurrent.ExecutionException | IllegalStateException e) {
                return false;
            }
        }
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
        Failure f = closed(status, reason);
        started.completeExceptionally(f);
        exit.completeExceptionally(f);
        return null;
    }

    /**
     * Why the socket closed before an exit status: the platform closes with 4000 plus an HTTP status when it refuses
     * (4404 an unknown sandbox, 4409 one that is not running), which is a refusal like a 4xx answer (exit 1).
     */
    static Failure closed(int status, String reason) {
        String why = Text.safe(reason) + " (" + status + ")";
        if (status == 4409) {
            return Failure.refused("the sandbox is not running: " + why + "; start it with `stockade sandbox start`");
        }
        if (status >= 4400 && status < 4500) {
            return Failure.refused("the platform refused the exec: " + why);
        }
        return Failure.usage("the exec ended without an exit status: " + why);
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
        Failure f = Failure.usage("the exec connection failed: " + Text.safe(String.valueOf(error.getMessage())));
        started.completeExceptionally(f);
        exit.completeExceptionally(f);
    }
}
