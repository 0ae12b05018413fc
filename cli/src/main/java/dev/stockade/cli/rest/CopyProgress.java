package dev.stockade.cli.rest;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The bytes a {@code sandbox copy} has moved, redrawn on one line of standard error at most four times a second
 * once past 1 MiB, and only when standard error is a terminal: a script's log gets no carriage returns.
 */
final class CopyProgress {
    static final long QUIET_BELOW = 1 << 20;
    private static final long EVERY_NANOS = 250_000_000L;

    private final PrintWriter err;
    private boolean shown;
    private final LongSupplier clock;
    private long bytes;
    private long drawn;
    private boolean drew;

    CopyProgress(PrintWriter err, boolean shown, LongSupplier clock) {
        this.err = err;
        this.shown = shown;
        this.clock = clock;
    }

    /** Progress on {@code err} when this process's standard error (file descriptor 2) is a terminal. */
    static CopyProgress onTerminal(PrintWriter err) {
        return new CopyProgress(err, stderrIsTerminal(), System::nanoTime);
    }

    /** Linux names the terminal behind a descriptor in /proc; elsewhere, or when unreadable: not a terminal. */
    static boolean stderrIsTerminal() {
        try {
            String to = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return to.startsWith("/dev/pts/") || to.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** {@code out}, counting what passes through it. */
    OutputStream counting(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                add(len);
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                add(1);
            }
        };
    }

    synchronized void add(long n) {
        bytes += n;
        long now = clock.getAsLong();
        if (shown && bytes >= QUIET_BELOW && (!drew || now - drawn >= EVERY_NANOS)) {
            drawn = now;
            drew = true;
            err.print("\r" + line(bytes));
            err.flush();
        }
    }

    /** Ends the progress line, once (the next message starts on a line of its own); nothing is drawn after. */
    synchronized void finish() {
        if (drew) {
            err.println("\r" + line(bytes));
            err.flush();
        }
        drew = false;
        shown = false;
    }

    synchronized long bytes() {
        return bytes;
    }

    /** {@code copied 12.3 MiB}. */
    static String line(long bytes) {
        return "copied " + size(bytes);
    }

    /** {@code 12.3 MiB}, in binary units as ls -h and the memory quantities use. */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes / 1024.0;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
