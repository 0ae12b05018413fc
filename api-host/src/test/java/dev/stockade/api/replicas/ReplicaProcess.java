package dev.stockade.api.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One replica as its own operating-system process (a platform's {@code ServeMain} or a proxy's {@code ProxyMain}) on
 * this JVM's class path, its output in a log file the test reads: SIGKILL is the point of the failover tests, and only
 * a process can be killed that way.
 */
final class ReplicaProcess implements AutoCloseable {
    private final String name;
    private final List<String> command;
    private final Path log;
    private Process process;

    private ReplicaProcess(String name, List<String> command, Path log) {
        this.name = name;
        this.command = command;
        this.log = log;
    }

    /**
     * {@code stockade serve} on {@code port}, on the external database {@code databaseUrl} as {@code user}, with the
     * installation's shared key-encryption key written into its data directory first ({@link #shareKey}).
     */
    static ReplicaProcess platform(String name, Path dataDir, int port, String databaseUrl, String user, Path config,
                                   String... extra) {
        List<String> args = new ArrayList<>(List.of("dev.stockade.api.ServeMain", "--data-dir", dataDir.toString(),
                "--port", Integer.toString(port), "--database-url", databaseUrl, "--database-user", user,
                "--config", config.toString()));
        args.addAll(List.of(extra));
        return new ReplicaProcess(name, java("-Xmx384m", args), dataDir.resolve(name + ".log"));
    }

    /** {@code stockade proxy --platform}: a separate egress proxy replica following the platform's feed. */
    static ReplicaProcess proxy(String name, Path dir, List<String> options) {
        List<String> args = new ArrayList<>(List.of("dev.stockade.proxy.ProxyMain"));
        args.addAll(options);
        return new ReplicaProcess(name, java("-Xmx160m", args), dir.resolve(name + ".log"));
    }

    /**
     * Writes one key-encryption key (a Tink AES-256-GCM keyset, as the Helm chart makes and mounts it) into every data
     * directory: replicas on one database must open each other's sealed secrets.
     */
    static void shareKey(Path... dataDirs) throws Exception {
        AeadConfig.register();
        String keyset = TinkJsonProtoKeysetFormat.serializeKeyset(
                KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM), InsecureSecretKeyAccess.get());
        for (Path dir : dataDirs) {
            Path file = dir.resolve("keys").resolve("kek.json");
            Files.createDirectories(file.getParent());
            Files.writeString(file, keyset);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
    }

    private static List<String> java(String heap, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                heap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")));
        cmd.addAll(args);
        return cmd;
    }

    /** Starts (or starts again, on the same options) the process; output is appended to its log. */
    ReplicaProcess start() {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().put("SANDBOX_EGRESS_PORT", "0"); // each platform's in-process proxy on a free port
            process = pb.start();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or closed; returns once the process is gone. */
    void kill() throws Exception {
        Process p = process;
        Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(p.pid())).redirectErrorStream(true).start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as(new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(name + " ended").isTrue();
        assertThat(p.exitValue()).as(name + " died of SIGKILL (128 + 9)").isEqualTo(137);
    }

    /** Waits (bounded) for the process to end by itself; its exit status. */
    int awaitExit(Duration bound) throws InterruptedException {
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not end within " + bound.toSeconds() + " s; it printed:\n" + tail());
        }
        return process.exitValue();
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** Everything the process wrote so far. */
    String output() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits (bounded) until the output has {@code count} lines containing {@code text}; fails early if it died. */
    void awaitOutput(String text, int count, Duration bound) {
        Await.until(name + " to print `" + text + "` " + count + " time(s)", bound, () -> {
            assertThat(alive()).as(name + " exited; it printed:\n" + tail()).isTrue();
            return output().lines().filter(l -> l.contains(text)).count() >= count;
        });
    }

    /** The last lines of the output, for failure messages. */
    String tail() {
        List<String> lines = output().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    String name() {
        return name;
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static int freePort() {
        return dev.stockade.testing.Ports.free();
    }
}
