package dev.stockade.cli.rest;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * This process's terminal, for {@code sandbox shell} and {@code exec -t}: its size ({@code stty size}) and raw mode
 * while a remote terminal owns the keyboard (saved with {@code stty -g}, restored on close, also on Ctrl-C through a
 * shutdown hook). When standard input is not a terminal nothing is changed and the size is 80x24.
 */
final class LocalTerminal implements AutoCloseable {
    private static final File TTY = new File("/dev/tty");

    private final boolean interactive;
    private final String saved;
    private final Thread restore = new Thread(this::restore, "restore-terminal");

    private LocalTerminal(boolean interactive, String saved) {
        this.interactive = interactive;
        this.saved = saved;
    }

    /** Puts the terminal in raw mode when standard input is one. */
    static LocalTerminal open() {
        if (System.console() == null || !TTY.canRead()) {
            return new LocalTerminal(false, null);
        }
        String saved = stty("-g");
        if (saved == null) {
            return new LocalTerminal(false, null);
        }
        LocalTerminal t = new LocalTerminal(true, saved.strip());
        Runtime.getRuntime().addShutdownHook(t.restore);
        stty("raw", "-echo");
        return t;
    }

    boolean interactive() {
        return interactive;
    }

    /** {@code [cols, rows]} of the terminal; 80x24 when there is none. */
    int[] size() {
        String s = interactive ? stty("size") : null;
        if (s != null) {
            String[] parts = s.strip().split("\\s+");
            if (parts.length == 2) {
                try {
                    return new int[] {Integer.parseInt(parts[1]), Integer.parseInt(parts[0])};
                } catch (NumberFormatException e) {
                    // fall through to the default
                }
            }
        }
        return new int[] {80, 24};
    }

    @Override
    public void close() {
        if (interactive) {
            restore();
            try {
                Runtime.getRuntime().removeShutdownHook(restore);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    private void restore() {
        stty(saved);
    }

    /** Runs stty on the controlling terminal; its output, or null when it failed. */
    private static String stty(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "stty";
        System.arraycopy(args, 0, argv, 1, args.length);
        try {
            Process p = new ProcessBuilder(argv).redirectInput(TTY).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
