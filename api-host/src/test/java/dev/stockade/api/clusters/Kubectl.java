package dev.stockade.api.clusters;

import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real kubectl (Debian's {@code kubernetes-client}, 1.20.2) as a child process, configured as a sandbox's tooling
 * would be: a kubeconfig whose server is the platform's cluster proxy URL and whose token is the sandbox's cluster
 * token (kubectl sends a token to an {@code https} server only). kubectl before 1.29 speaks SPDY/3.1 for exec, attach
 * and port-forward; a newer one on {@code PATH} is told to as well ({@code KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false},
 * {@code KUBECTL_PORT_FORWARD_WEBSOCKETS=false}, which 1.20 ignores). Its home is a scratch folder, so its discovery
 * cache stays there.
 *
 * @param binary the kubectl found on {@code PATH}
 * @param home   its {@code HOME}
 * @param config its kubeconfig
 */
record Kubectl(Path binary, Path home, Path config) {
    /** How long one kubectl run may take: a loaded 2-core machine, an API server and the platform in between. */
    static final Duration BOUND = Duration.ofSeconds(90);

    /**
     * kubectl for {@code server} (verified with the CA certificate {@code ca}) with {@code token}, in namespace
     * {@code namespace}; skips (or fails in CI) without it.
     */
    static Kubectl forProxy(URI server, Path ca, String token, String namespace, Path home) {
        Path binary = Requires.onPath("kubectl", "kubernetes-client");
        Path config = home.resolve("kubeconfig");
        try {
            Files.writeString(config, String.join("\n", "apiVersion: v1", "kind: Config", "clusters:",
                    "- name: stockade", "  cluster:", "    server: " + server, "    certificate-authority: " + ca,
                    "users:", "- name: sandbox", "  user:", "    token: " + token, "contexts:", "- name: sandbox",
                    "  context:", "    cluster: stockade", "    user: sandbox", "    namespace: " + namespace,
                    "current-context: sandbox", ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Kubectl(binary, home, config);
    }

    /** Starts {@code kubectl args...}; its output is collected as it comes. */
    Run start(String... args) {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--kubeconfig", config.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false");
        builder.environment().put("KUBECTL_PORT_FORWARD_WEBSOCKETS", "false");
        try {
            return new Run(String.join(" ", args), builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One kubectl process: its stdin, its output so far, its exit. */
    static final class Run {
        private final String what;
        private final Process process;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final ByteArrayOutputStream err = new ByteArrayOutputStream();
        private final Thread[] readers;

        private Run(String what, Process process) {
            this.what = what;
            this.process = process;
            readers = new Thread[] {collect(process.getInputStream(), out), collect(process.getErrorStream(), err)};
        }

        private static Thread collect(InputStream in, ByteArrayOutputStream into) {
            Thread reader = new Thread(() -> {
                byte[] buffer = new byte[8192];
                try {
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        synchronized (into) {
                            into.write(buffer, 0, n);
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "kubectl-output");
            reader.setDaemon(true);
            reader.start();
            return reader;
        }

        OutputStream stdin() {
            return process.getOutputStream();
        }

        String stdout() {
            synchronized (out) {
                return out.toString(StandardCharsets.UTF_8);
            }
        }

        String stderr() {
            synchronized (err) {
                return err.toString(StandardCharsets.UTF_8);
            }
        }

        /** Waits, bounded, until stdout contains {@code text}. */
        void awaitStdout(String text) {
            Await.until("`kubectl " + what + "` to print `" + text + "` (stdout so far: `" + stdout() + "`, stderr: `"
                    + stderr() + "`)", Kubectl.BOUND, () -> stdout().contains(text) || !process.isAlive());
            if (!stdout().contains(text)) {
                throw new AssertionError("`kubectl " + what + "` ended with " + process.exitValue() + " before it"
                        + " printed `" + text + "`; stdout: `" + stdout() + "`, stderr: `" + stderr() + "`");
            }
        }

        /** kubectl's exit status, once it ended within {@link #BOUND} (and its output was read to the end). */
        int exit() throws InterruptedException {
            if (!process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("`kubectl " + what + "` did not end within " + BOUND.toSeconds() + " s;"
                        + " stdout: `" + stdout() + "`, stderr: `" + stderr() + "`");
            }
            for (Thread reader : readers) {
                reader.join(BOUND.toMillis());
            }
            return process.exitValue();
        }

        /** Ends kubectl as Ctrl-C would (SIGTERM), then waits for it, bounded. */
        int interrupt() throws InterruptedException {
            process.destroy();
            return exit();
        }
    }
}
