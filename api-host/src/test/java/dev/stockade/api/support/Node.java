package dev.stockade.api.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.testing.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Real Node.js parts for tests (installed by {@code .ci/run} with {@code npm ci} in {@code src/test/node}): MCP
 * servers started as processes, and the official MCP TypeScript SDK client run as a script whose JSON lines are read
 * one at a time, so a test can act between them.
 */
public final class Node {
    public static final Path DIR = Path.of("src/test/node").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Node() {
    }

    /** Starts {@code script} (relative to {@link #DIR}) with {@code PORT} set and waits until the port accepts. */
    public static Process server(int port, String script, String... args) {
        if (!Files.isDirectory(DIR.resolve("node_modules"))) {
            throw new IllegalStateException("run `npm ci --prefix api-host/src/test/node` first (.ci/run does)");
        }
        try {
            List<String> cmd = new ArrayList<>(List.of("node", script));
            cmd.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(DIR.toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("PORT", Integer.toString(port));
            Process p = pb.start();
            // node loads its modules first: seconds on a loaded machine, so a deadline rather than a count
            long deadline = System.nanoTime() + Await.LONG.toNanos();
            while (System.nanoTime() - deadline < 0 && p.isAlive()) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                    return p;
                } catch (IOException notYet) {
                    Thread.sleep(50); // the server is still loading its modules
                }
            }
            boolean exited = !p.isAlive();
            p.destroyForcibly();
            throw new IllegalStateException(script + (exited ? " exited before it listened on " + port
                    : " did not listen on " + port + " within " + Await.LONG.toSeconds() + " s"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The SDK client script, running: read its lines with {@link #next}. */
    public static final class Client implements AutoCloseable {
        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> all = new ArrayList<>();

        public Client(String url, String token, String... rest) {
            this(command("mcp-client.mjs", url, token, rest));
        }

        /** Runs another script of {@link #DIR} that prints JSON lines the same way. */
        public static Client script(String script, String... args) {
            return new Client(command(script, null, null, args));
        }

        private static List<String> command(String script, String url, String token, String[] rest) {
            List<String> cmd = new ArrayList<>(List.of("node", script));
            if (url != null) {
                cmd.addAll(List.of(url, token));
            }
            cmd.addAll(List.of(rest));
            return cmd;
        }

        private Client(List<String> cmd) {
            try {
                process = new ProcessBuilder(cmd).directory(DIR.toFile()).redirectErrorStream(true).start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException ignored) {
                    // the process ended; what it printed is in the queue
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        /** The next JSON line with {@code event}, skipping other output; fails after 60 s or on a failure line. */
        public JsonNode next(String event) {
            try {
                while (true) {
                    String line = lines.poll(60, TimeUnit.SECONDS);
                    if (line == null) {
                        throw new AssertionError("no `" + event + "` line from the SDK client; it printed " + all);
                    }
                    all.add(line);
                    if (!line.startsWith("{")) {
                        continue;
                    }
                    JsonNode node = JSON.readTree(line);
                    if (node.path("event").asText().equals(event)) {
                        return node;
                    }
                    if (node.path("event").asText().equals("failed")) {
                        throw new AssertionError("the SDK client failed: " + line + " after " + all);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Runs to the end and returns the exit status. */
        public int finish() throws InterruptedException {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the SDK client did not end; it printed " + all + " " + lines);
            }
            return process.exitValue();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
