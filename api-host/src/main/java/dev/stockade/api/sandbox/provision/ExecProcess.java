package dev.stockade.api.sandbox.provision;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/** A running exec: its streams, resize, and exit. {@link #close()} kills it if it still runs. */
public interface ExecProcess extends AutoCloseable {
    OutputStream stdin();

    InputStream stdout();

    /** The error stream; empty for a tty exec (the terminal carries both). */
    InputStream stderr();

    /** Resizes the pseudo-terminal; ignored without a tty. */
    void resize(int cols, int rows);

    /** Completes with the exit status. */
    CompletableFuture<Integer> exit();

    @Override
    void close();
}
