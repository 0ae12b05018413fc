package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.ProvisionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A command inside a running local sandbox: {@code nsenter} into every namespace of its init process (user, mount,
 * uts, ipc, net, pid) as the sandbox's uid, with the init process's environment, in {@code /workspace}. Without a
 * tty stdout and stderr are separate pipes; with one the command runs on a pseudo-terminal (pty4j) of the requested
 * size, stdout and stderr are the terminal's one stream, and a resize sets the window size (the command gets
 * {@code SIGWINCH}).
 */
final class NsExec {
    private NsExec() {
    }

    static ExecProcess start(long initPid, ExecRequest request) throws ProvisionException {
        List<String> argv = new ArrayList<>(List.of("nsenter", "-t", Long.toString(initPid), "-U", "-m", "-u", "-i",
                "-n", "-p", "-S", Integer.toString(Bubblewrap.UID), "-G", Integer.toString(Bubblewrap.UID),
                "--wdns=/workspace", "--"));
        argv.addAll(request.command().isEmpty() ? List.of("/bin/sh") : request.command());
        Map<String, String> env = environmentOf(initPid);
        if (request.tty()) {
            return Terminal.start(argv, env, request.cols(), request.rows());
        }
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().clear();
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            return new Piped(p);
        } catch (IOException e) {
            throw new ProvisionException("cannot exec in the sandbox: " + e.getMessage());
        }
    }

    /** The environment the sandbox's init process runs with ({@code /proc/PID/environ}). */
    static Map<String, String> environmentOf(long pid) throws ProvisionException {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
            Map<String, String> env = new java.util.LinkedHashMap<>();
            for (String kv : new String(raw, StandardCharsets.UTF_8).split("\0")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    env.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            return env;
        } catch (IOException e) {
            throw new ProvisionException("the sandbox is not running");
        }
    }

    private record Piped(Process p) implements ExecProcess {
        @Override
        public OutputStream stdin() {
            return p.getOutputStream();
        }

        @Override
        public InputStream stdout() {
            return p.getInputStream();
        }

        @Override
        public InputStream stderr() {
            return p.getErrorStream();
        }

        @Override
        public void resize(int cols, int rows) {
            // no terminal
        }

        @Override
        public CompletableFuture<Integer> exit() {
            return p.onExit().thenApply(Process::exitValue);
        }

        @Override
        public void close() {
            ProcessTree.killDescendants(p.pid());
            p.destroyForcibly();
        }
    }
}
