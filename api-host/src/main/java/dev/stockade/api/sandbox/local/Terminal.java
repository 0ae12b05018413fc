package dev.stockade.api.sandbox.local;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.WinSize;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ProvisionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * An exec on a pseudo-terminal: the host allocates a pty (pty4j) for {@code nsenter}, and inside the sandbox
 * util-linux {@code script} gives the command a pty of the sandbox's own, relayed to the host's. The terminal merges
 * stdout and stderr; {@link #resize} sets the host pty's window size, {@code script} copies it inward on
 * {@code SIGWINCH}, and the command gets {@code SIGWINCH} in turn.
 */
final class Terminal implements ExecProcess {
    private static final int DEFAULT_COLS = 80;
    private static final int DEFAULT_ROWS = 24;

    /** End of input on a terminal: the EOF character, as a person types it (closing the master would hang up). */
    private static final int EOT = 4;

    private final PtyProcess process;
    private final CompletableFuture<Integer> exit;
    private final OutputStream input;

    private Terminal(PtyProcess process) {
        this.process = process;
        this.exit = process.onExit().thenApply(Process::exitValue);
        this.input = new java.io.FilterOutputStream(process.getOutputStream()) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                // pty4j's stream mishandles a non-zero offset: hand it the slice
                out.write(java.util.Arrays.copyOfRange(b, off, off + len));
            }

            @Override
            public void close() throws IOException {
                if (process.isAlive()) {
                    out.write(EOT);
                    out.flush();
                }
            }
        };
    }

    static Terminal start(List<String> argv, Map<String, String> environment, int cols, int rows)
            throws ProvisionException {
        Map<String, String> env = new LinkedHashMap<>(environment);
        env.putIfAbsent("TERM", "xterm-256color");
        int c = cols > 0 ? cols : DEFAULT_COLS;
        int r = rows > 0 ? rows : DEFAULT_ROWS;
        // The host's pty is nsenter's controlling terminal, in the host's pid namespace, where the command's shell
        // could not set its process group. So util-linux `script` runs inside the sandbox: it opens a pty of the
        // sandbox's own /dev/pts for the command (a new session there, job control works), relays it to the host's
        // pty, and copies the window size on SIGWINCH. The size is set first, since pty4j sets it only after the
        // child starts.
        int split = argv.indexOf("--") + 1;
        List<String> sized = new java.util.ArrayList<>(argv.subList(0, split));
        sized.addAll(List.of("/bin/sh", "-c", "stty cols \"$1\" rows \"$2\" 2>/dev/null; exec script -qefc \"$3\""
                + " /dev/null", "sh", Integer.toString(c), Integer.toString(r),
                "exec " + shellQuoted(argv.subList(split, argv.size()))));
        try {
            return new Terminal(new PtyProcessBuilder(sized.toArray(String[]::new)).setEnvironment(env)
                    .setDirectory("/").setInitialColumns(c).setInitialRows(r).setRedirectErrorStream(true).start());
        } catch (IOException | RuntimeException e) {
            throw new ProvisionException("cannot open a terminal in the sandbox: " + e.getMessage());
        }
    }

    /** The argv as one shell command line, each word single-quoted. */
    static String shellQuoted(List<String> words) {
        StringBuilder b = new StringBuilder();
        for (String w : words) {
            b.append(b.length() == 0 ? "" : " ").append('\'').append(w.replace("'", "'\\''")).append('\'');
        }
        return b.toString();
    }

    @Override
    public OutputStream stdin() {
        return input;
    }

    @Override
    public InputStream stdout() {
        return process.getInputStream();
    }

    @Override
    public InputStream stderr() {
        return InputStream.nullInputStream();
    }

    @Override
    public void resize(int cols, int rows) {
        if (cols > 0 && rows > 0 && process.isAlive()) {
            process.setWinSize(new WinSize(cols, rows));
        }
    }

    @Override
    public CompletableFuture<Integer> exit() {
        return exit;
    }

    /** Kills what the command started, then the command. */
    @Override
    public void close() {
        ProcessTree.killDescendants(process.pid());
        process.destroyForcibly();
    }
}
