package dev.stockade.cli.rest;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * One command in a sandbox over the exec socket (docs/platform.md, "Interactive exec"), its streams chosen by the
 * caller: {@code sandbox copy} feeds it a tar stream or reads one, {@code sandbox exec}, {@code shell} and
 * {@code run} connect it to this process. The frames carry bytes both ways, so a tar stream passes unchanged.
 */
final class SandboxExec {
    private final ExecSession session;
    private final WebSocket ws;

    private SandboxExec(ExecSession session, WebSocket ws) {
        this.session = session;
        this.ws = ws;
    }

    /**
     * Opens the exec socket of the sandbox at {@code sandboxPath} ({@code /v1/projects/P/sandboxes/S}) for
     * {@code command}; {@code ttySize} ({@code [cols, rows]}, null: no terminal) asks for a terminal.
     */
    static SandboxExec open(ApiClient client, String sandboxPath, List<String> command, int[] ttySize,
                            OutputStream out, OutputStream err) {
        ExecSession session = new ExecSession(out, err);
        return new SandboxExec(session, client.webSocket(sandboxPath + "/exec" + query(command, ttySize), session));
    }

    /** The exec query: one {@code command} parameter per argument, then the terminal's size when there is one. */
    static String query(List<String> command, int[] ttySize) {
        StringBuilder q = new StringBuilder();
        for (String arg : command == null ? List.<String>of() : command) {
            q.append(q.length() == 0 ? "?" : "&").append("command=").append(URLEncoder.encode(arg,
                    StandardCharsets.UTF_8));
        }
        if (ttySize != null) {
            q.append(q.length() == 0 ? "?" : "&").append("tty=true&cols=").append(ttySize[0]).append("&rows=")
                    .append(ttySize[1]);
        }
        return q.toString();
    }

    /**
     * Sends {@code stdin} (null: at once the end of input, unless on a terminal) and waits for the command's exit
     * status; a socket that ends without one is a {@link Failure}.
     */
    int await(InputStream stdin, java.util.function.Supplier<int[]> size, boolean tty) {
        return awaitExit(stdin, size, !tty);
    }

    /**
     * Waits for the exit status of a command that never reads its input ({@code tar -c}, a probe), sending no frame
     * at all. The platform closes the socket right after the exit status; a frame it has not read by then (an end of
     * input queued behind a large output) makes its kernel reset the connection, and the reset discards the tail of
     * the output still on its way here (docs/semantics.md).
     */
    int awaitOutput() {
        return awaitExit(null, null, false);
    }

    private int awaitExit(InputStream stdin, java.util.function.Supplier<int[]> size, boolean endInput) {
        try {
            return session.run(ws, stdin, size, endInput);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Failure f ? f : Failure.usage("the exec failed: " + Text.safe(String
                    .valueOf(e.getCause())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failure.usage("interrupted");
        } catch (Failure e) {
            throw e;
        } catch (Exception e) {
            throw Failure.usage("the exec failed: " + e.getClass().getSimpleName());
        }
    }

    /** Ends the exec at once: the platform kills the command when its socket goes. */
    void abort() {
        ws.abort();
    }
}
