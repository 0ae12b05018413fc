package dev.stockade.api.clusters;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A process the kubelet stand-in runs on this machine in place of a container's: an exec's command, or a container's
 * main process that attach sessions join. Its stdout and stderr go to every session attached at the time (output with
 * none attached is dropped, as a runtime's attach shows only what comes while attached); its end reaches them all.
 */
final class StandInProcess {
    /** A session that receives a process's output and end. */
    interface Attachment {
        /** Output of the process: {@code fd} 1 for stdout, 2 for stderr. */
        void output(int fd, byte[] bytes);

        /** The process ended with {@code code}, after all of its output was delivered. */
        void exited(int code);
    }

    private final Process process;
    private final OutputStream stdin;
    private final List<Attachment> attached = new CopyOnWriteArrayList<>();

    private StandInProcess(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
    }

    /** Starts {@code command} with a bare environment, {@code first} attached before any output can come. */
    static StandInProcess start(List<String> command, Attachment first) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        StandInProcess started = new StandInProcess(builder.start());
        if (first != null) {
            started.attached.add(first);
        }
        started.pump();
        return started;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    void attach(Attachment session) {
        attached.add(session);
    }

    void detach(Attachment session) {
        attached.remove(session);
    }

    /** Writes to the process's stdin; a process that stopped reading loses the bytes, as a closed pipe does. */
    void input(byte[] bytes) {
        try {
            stdin.write(bytes);
            stdin.flush();
        } catch (IOException e) {
            // the process no longer reads
        }
    }

    /** Closes the process's stdin: it reads end of file. */
    void closeInput() {
        try {
            stdin.close();
        } catch (IOException e) {
            // already closed
        }
    }

    void destroy() {
        process.destroyForcibly();
    }

    private void pump() {
        Thread out = copy(process.getInputStream(), 1);
        Thread err = copy(process.getErrorStream(), 2);
        background("exit", () -> {
            try {
                int code = process.waitFor();
                out.join();
                err.join();
                attached.forEach(a -> a.exited(code));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private Thread copy(InputStream in, int fd) {
        return background("fd-" + fd, () -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    byte[] chunk = Arrays.copyOf(buffer, n);
                    attached.forEach(a -> a.output(fd, chunk));
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }

    private static Thread background(String name, Runnable task) {
        Thread thread = new Thread(task, "kubelet-stand-in-process-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
