package dev.stockade.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Where audit lines go. Implementations must be thread-safe and must never throw to the caller. */
public interface AuditSink extends AutoCloseable {

    /** Records one decision. */
    void record(AuditEvent event);

    @Override
    default void close() {
    }

    /** Appends JSON lines to a file (created 0600 where the file system supports it). */
    static AuditSink file(Path path) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        OutputStream out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
        try {
            Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException | IOException ignored) {
            // not a POSIX file system: the directory's permissions must protect the file
        }
        return new StreamSink(new PrintStream(out, true, StandardCharsets.UTF_8), true);
    }

    /** Writes JSON lines to standard output. */
    static AuditSink stdout() {
        return new StreamSink(System.out, false);
    }

    /** A sink over a print stream. */
    final class StreamSink implements AuditSink {
        private final PrintStream out;
        private final boolean owned;

        StreamSink(PrintStream out, boolean owned) {
            this.out = out;
            this.owned = owned;
        }

        @Override
        public synchronized void record(AuditEvent event) {
            out.println(event.toJson());
            out.flush();
        }

        @Override
        public synchronized void close() {
            if (owned) {
                out.close();
            }
        }
    }
}
