package dev.stockade.cli.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The two directions of {@code sandbox copy} over the exec socket, as {@code kubectl cp} rides on exec: a tar stream
 * made here is the standard input of {@code tar -x} in the sandbox, or the standard output of {@code tar -c} there
 * is unpacked here. A pipe joins the socket's thread and this one, so a slow disk slows the socket instead of
 * filling memory.
 */
final class TarTransfer {
    /** What a probe found at a sandbox path; {@link #NO_TAR} when the sandbox cannot take part in a copy at all. */
    enum RemoteKind { DIRECTORY, FILE, ABSENT, NO_PARENT, NO_TAR }

    /**
     * Reports what is at {@code $1} in one exec; {@code -e || -L} so a dangling link counts as a file (tar copies
     * the link itself). The path is an argument, never part of the script, so no name can inject shell.
     */
    static final String PROBE = "command -v tar >/dev/null 2>&1 || { echo NO_TAR; exit 0; }; "
            + "if [ -d \"$1\" ]; then echo DIRECTORY; elif [ -e \"$1\" ] || [ -L \"$1\" ]; then echo FILE; "
            + "elif [ -d \"$(dirname -- \"$1\")\" ]; then echo ABSENT; else echo NO_PARENT; fi";
    /** How long to wait for the local side of a transfer once the sandbox's command ended. */
    private static final long SETTLE_SECONDS = 30;

    private final ApiClient client;
    private final String sandboxPath;

    /** Transfers with the sandbox at {@code sandboxPath} ({@code /v1/projects/P/sandboxes/S}). */
    TarTransfer(ApiClient client, String sandboxPath) {
        this.client = client;
        this.sandboxPath = sandboxPath;
    }

    /** A producer of the tar stream sent into the sandbox. */
    @FunctionalInterface
    interface Packer {
        void write(OutputStream tar) throws IOException;
    }

    /** What is at {@code path} in the sandbox. */
    RemoteKind probe(String path) {
        Captured out = new Captured();
        Captured err = new Captured();
        int status = SandboxExec.open(client, sandboxPath, List.of("sh", "-c", PROBE, "sh", path), null, out, err)
                .awaitOutput();
        String answer = out.text().strip();
        try {
            if (status == 0) {
                return RemoteKind.valueOf(answer);
            }
        } catch (IllegalArgumentException e) {
            // falls through to the failure below
        }
        throw Failure.usage("cannot inspect the sandbox's files (exit " + status + "): " + err.firstLine());
    }

    /** Runs {@code command} (a {@code tar -x}) with the packed stream as its standard input; its exit status. */
    int send(List<String> command, Packer packer, CopyProgress progress) throws IOException {
        Pipe pipe = Pipe.open();
        CompletableFuture<Void> packed = background("copy-pack", () -> {
            try (OutputStream tar = progress.counting(new Unread(Channels.newOutputStream(pipe.sink())))) {
                packer.write(tar);
            }
            return null;
        });
        Captured err = new Captured();
        int status;
        try (InputStream tar = Channels.newInputStream(pipe.source())) {
            status = SandboxExec.open(client, sandboxPath, command, null, new Captured(), err).await(tar, null, false);
        } // closing the pipe ends a packer the sandbox stopped reading
        try {
            settle(packed); // a local failure (an unreadable file) is the one to report
        } catch (Unread.Refused e) {
            // the sandbox stopped reading: after a tar that failed its message says why; after one that succeeded
            // it had its end-of-archive, and only record padding went unread
            checked(status, err);
            return status;
        }
        return checked(status, err);
    }

    /** The pipe into the exec socket; a write its reader no longer takes is told apart from a local failure. */
    private static final class Unread extends java.io.FilterOutputStream {
        /** The sandbox's side of the pipe is gone. */
        static final class Refused extends IOException {
            private static final long serialVersionUID = 1L;

            Refused(IOException cause) {
                super("the sandbox stopped reading", cause);
            }
        }

        Unread(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw new Refused(e);
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }
    }

    /** Runs {@code command} (a {@code tar -c}) and unpacks its standard output with {@code extraction}. */
    int receive(List<String> command, ConfinedExtraction extraction, CopyProgress progress) throws IOException {
        Pipe pipe = Pipe.open();
        OutputStream sink = progress.counting(Channels.newOutputStream(pipe.sink()));
        Captured err = new Captured();
        SandboxExec exec = SandboxExec.open(client, sandboxPath, command, null, sink, err);
        CompletableFuture<Integer> status = background("copy-exec", () -> {
            try (sink) {
                return exec.awaitOutput();
            }
        });
        int entries;
        try (InputStream tar = Channels.newInputStream(pipe.source())) {
            entries = extraction.extract(tar);
            tar.transferTo(OutputStream.nullOutputStream()); // the record padding after the end-of-archive
        } catch (Failure e) {
            exec.abort(); // a refused entry ends the copy: nothing more from this sandbox is read
            throw e;
        } catch (IOException e) {
            // a stream cut short: the sandbox's tar failing explains it better than the truncation does
            Integer remote = endedWith(status);
            exec.abort();
            if (remote != null) {
                checked(remote, err);
            }
            throw e;
        }
        checked(settle(status), err);
        return entries;
    }

    /** Runs {@code command} (a {@code tar -c}) with its standard output going to {@code out} as it is. */
    void stream(List<String> command, OutputStream out) {
        Captured err = new Captured();
        checked(SandboxExec.open(client, sandboxPath, command, null, out, err).awaitOutput(), err);
    }

    private static int checked(int status, Captured err) {
        if (status != 0) {
            throw Failure.usage("tar in the sandbox failed (exit " + status + "): " + err.firstLine());
        }
        return status;
    }

    /** The exit status if the sandbox's command ends within two seconds; null when it does not or failed. */
    private static Integer endedWith(CompletableFuture<Integer> status) {
        try {
            return status.get(2, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The result of a side task that must end soon after the sandbox's command did; its failure rethrown. */
    private static <T> T settle(CompletableFuture<T> task) throws IOException {
        try {
            return task.get(SETTLE_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Failure f) {
                throw f;
            }
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw Failure.usage("the copy failed: " + Text.safe(String.valueOf(e.getCause())));
        } catch (TimeoutException e) {
            throw Failure.usage("the copy did not finish within " + SETTLE_SECONDS + " seconds of the sandbox's tar");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failure.usage("interrupted");
        }
    }

    /** A task that may block on a pipe, on a daemon thread of its own so a stuck one never holds the JVM. */
    private static <T> CompletableFuture<T> background(String name, java.util.concurrent.Callable<T> work) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(work.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** The first 4 KiB of a stream (the sandbox's stderr, or a probe's answer); the rest is dropped. */
    static final class Captured extends OutputStream {
        private static final int MAX = 4096;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            bytes.write(b, off, Math.max(0, Math.min(len, MAX - bytes.size())));
        }

        synchronized String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }

        /** The first non-blank line, safe to print; a placeholder when the command said nothing. */
        String firstLine() {
            return text().lines().filter(l -> !l.isBlank()).findFirst().map(Text::safe).orElse("(no message)");
        }
    }
}
